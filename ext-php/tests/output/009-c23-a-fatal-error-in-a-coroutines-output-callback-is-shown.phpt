--TEST--
A fatal error inside a coroutine's output callback is shown: the coroutine's buffers are written out as they are (outermost first, the callbacks not called again), with what the callback printed and the error's message; the shutdown functions run and print
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown ran\n"; });
Async\await(Async\spawn(function () {
    ob_start();
    echo "outer buffer\n";
    ob_start(function ($buf) {
        echo "printed by the callback\n";
        trigger_error("boom in the callback", E_USER_ERROR);
        return "never returned\n";
    });
    echo "inner buffer\n";
    ob_end_flush();
    echo "never\n";
}));
echo "main never continues\n";
?>
--EXPECTF--
outer buffer
inner buffer
printed by the callback

Fatal error: boom in the callback in %s on line 8
shutdown ran
