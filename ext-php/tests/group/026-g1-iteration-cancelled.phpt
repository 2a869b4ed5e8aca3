--TEST--
Rule G1/C7: a coroutine iterating a group can be cancelled while it waits for the next task
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(fn() => Async\delay(60000));
$reader = Async\spawn(function () use ($g) {
    try {
        foreach ($g as $k => $v) echo "never\n";
    } catch (Async\CancellationError $e) {
        echo "reader: ", $e->getMessage(), "\n";
    }
});
Async\suspend();
$reader->cancel(new Async\CancellationError("stop reading"));
try { Async\await($reader); } catch (Async\CancellationError) {}
$g->cancel();
?>
--EXPECT--
reader: stop reading
