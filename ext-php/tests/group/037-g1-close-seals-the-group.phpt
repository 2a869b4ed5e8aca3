--TEST--
Rule G1: close() refuses new tasks; held and running tasks go on; isClosed() and isFinished() follow; a producer held by the queue limit is refused too
--FILE--
<?php
$g = new Async\TaskGroup(1);
$g->spawn(function () { Async\delay(10); echo "running task done\n"; });
$g->spawn(function () { echo "held task runs after close()\n"; });
var_dump($g->isClosed(), $g->isFinished());
$g->close();
$g->close();
var_dump($g->isClosed());
try {
    $g->spawn(fn() => 1);
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
$g->awaitCompletion();
var_dump($g->isFinished(), count($g));

$h = new Async\TaskGroup(1, 1);
$h->spawn(fn() => Async\delay(20));
$h->spawn(fn() => null);
$producer = Async\spawn(function () use ($h) {
    try {
        $h->spawn(fn() => null);
    } catch (Async\AsyncException $e) {
        echo "held producer: ", $e->getMessage(), "\n";
    }
});
Async\suspend();
$h->close();
Async\await($producer);
$open = new Async\TaskGroup();
var_dump($open->isFinished(), $open->isClosed());
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
Cannot spawn tasks on a closed TaskGroup
running task done
held task runs after close()
bool(true)
int(2)
held producer: Cannot spawn tasks on a closed TaskGroup
bool(true)
bool(false)
