--TEST--
exit() inside a coroutine's output callback ends the program with its status, and what the coroutine's buffers held (and what the callback printed) is written out as it is, outermost first
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown ran\n"; });
Async\spawn(function () {
    ob_start();
    echo "outer buffer\n";
    ob_start(function ($buf) {
        echo "printed by the callback\n";
        exit(3);
    });
    echo "inner buffer\n";
    ob_end_flush();
    echo "never\n";
});
Async\delay(10);
echo "main never continues\n";
?>
--EXPECT--
outer buffer
inner buffer
printed by the callback
shutdown ran
