--TEST--
A fatal error in a shutdown function while its coroutines wait: they do not run on, and the later shutdown functions do not run, as in plain PHP
--FILE--
<?php
register_shutdown_function(function () {
    Async\spawn(function () {
        try { Async\delay(5000); echo "other continued\n"; } finally { echo "other finally\n"; }
    });
    Async\delay(5);
    trigger_error("boom in shutdown", E_USER_ERROR);
    echo "shutdown function continued\n";
});
register_shutdown_function(fn() => print("second shutdown function ran\n"));
echo "main done\n";
?>
--EXPECTF--
main done

Fatal error: boom in shutdown in %s on line 7
