--TEST--
Rule T4: joinNext() returns a Future of the next result to arrive, value or error; the task leaves the set when its result is delivered, so each call gets the next one and count() drops
--FILE--
<?php
$set = new Async\TaskSet();
$set->spawn(function () { Async\delay(300); return "slow"; });
$set->spawn(function () { Async\delay(100); return "fast"; });
$set->spawnWithKey('bad', function () { Async\delay(200); throw new RuntimeException("failed"); });
echo "count ", count($set), "\n";
echo $set->joinNext()->await(), ", count ", count($set), "\n";
try {
    $set->joinNext()->await();
} catch (RuntimeException $e) {
    echo "error: ", $e->getMessage(), ", count ", count($set), "\n";
}
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
