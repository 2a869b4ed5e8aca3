--TEST--
Rule C7: finally blocks run when a cancellation unwinds a coroutine
--FILE--
<?php
$c = Async\spawn(function () {
    try {
        echo "Starting work\n";
        Async\sleep(10000);
        echo "Finished\n";
    } finally {
        echo "Cleaning up resources\n";
    }
});
Async\sleep(10);
$c->cancel();
Async\suspend();
echo "end\n";
?>
--EXPECT--
Starting work
Cleaning up resources
end
