--TEST--
Rule T4: joinNext() returns a Future of the next result to arrive, value or error; the task leaves the set when its result is delivered, so each call gets the next one and count() drops
--FILE--
<?php
// Each task waits for a gate the main flow opens after the previous
// result was delivered, so the tasks finish in the order fast, bad, slow
// (not the order they were spawned in) on any machine and under valgrind.
$gate = ['fast' => new Async\FutureState(), 'bad' => new Async\FutureState(), 'slow' => new Async\FutureState()];
$set = new Async\TaskSet();
$set->spawn(function () use ($gate) { (new Async\Future($gate['slow']))->await(); return "slow"; });
$set->spawn(function () use ($gate) { (new Async\Future($gate['fast']))->await(); return "fast"; });
$set->spawnWithKey('bad', function () use ($gate) { (new Async\Future($gate['bad']))->await(); throw new RuntimeException("failed"); });
echo "count ", count($set), "\n";
$next = $set->joinNext();
$gate['fast']->complete(null);
echo $next->await(), ", count ", count($set), "\n";
$next = $set->joinNext();
$gate['bad']->complete(null);
try {
    $next->await();
} catch (RuntimeException $e) {
    echo "error: ", $e->getMessage(), ", count ", count($set), "\n";
}
$gate['slow']->complete(null);
echo Async\await($set->joinNext()), ", count ", count($set), "\n";
try {
    $set->joinNext();
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
count 3
fast, count 2
error: failed, count 1
slow, count 0
Cannot call joinNext() on an empty TaskSet
