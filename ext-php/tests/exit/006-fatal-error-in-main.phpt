--TEST--
A fatal error in the main flow: coroutines do not run on, shutdown functions may use async code
--FILE--
<?php
register_shutdown_function(function () {
    echo Async\await(Async\spawn(fn() => "shutdown uses async")), "\n";
});
Async\spawn(function () { echo "started\n"; Async\suspend(); echo "never\n"; });
Async\suspend();
trigger_error("main fails", E_USER_ERROR);
?>
--EXPECTF--
started

Fatal error: main fails in %s on line 7
shutdown uses async
