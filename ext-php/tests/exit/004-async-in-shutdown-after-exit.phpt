--TEST--
After exit(), shutdown functions may still use the async API (C19)
--FILE--
<?php
register_shutdown_function(function () {
    echo Async\await(Async\spawn(function () { Async\delay(1); return "async in shutdown"; })), "\n";
});
Async\spawn(function () { Async\suspend(); echo "never\n"; });
Async\suspend();
exit();
?>
--EXPECT--
async in shutdown
