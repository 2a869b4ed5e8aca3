--TEST--
Rule C15/C19: exit() inside a shutdown function starts graceful shutdown; the remaining shutdown functions do not run (as in PHP)
--FILE--
<?php
register_shutdown_function(function () {
    Async\spawn(function () {
        try { Async\delay(60000); } finally { echo "coroutine from the shutdown function cleans up\n"; }
    });
    Async\suspend();
    exit(0);
});
register_shutdown_function(fn() => print("not reached\n"));
?>
--EXPECT--
coroutine from the shutdown function cleans up
