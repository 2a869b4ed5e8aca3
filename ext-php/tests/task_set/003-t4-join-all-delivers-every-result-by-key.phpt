--TEST--
Rule T4: joinAll() completes once no task runs, with [key => result] in spawn order, and every task leaves the set; with errors it fails with a CompositeException unless $ignoreErrors; on an empty set it completes with []
--FILE--
<?php
$set = new Async\TaskSet();
$set->spawnWithKey('user', function () { Async\delay(20); return "alice"; });
$set->spawnWithKey('orders', function () { Async\delay(5); return [1, 2]; });
$set->spawn(fn () => "numbered");
$set->close();
echo json_encode($set->joinAll()->await()), ", count ", count($set), "\n";
echo json_encode($set->joinAll()->await()), "\n";

$errors = new Async\TaskSet();
$errors->spawn(fn () => "ok");
$errors->spawn(function () { throw new RuntimeException("broken"); });
try {
    $errors->joinAll()->await();
} catch (Async\CompositeException $e) {
    echo "failed with ", count($e->getExceptions()), " error(s): ", $e->getExceptions()[0]->getMessage(), ", count ", count($errors), "\n";
}
$ignoring = new Async\TaskSet();
$ignoring->spawn(fn () => "ok");
$ignoring->spawn(function () { throw new RuntimeException("ignored"); });
echo json_encode($ignoring->joinAll(true)->await()), "\n";
?>
--EXPECT--
{"user":"alice","orders":[1,2],"0":"numbered"}, count 0
[]
failed with 1 error(s): broken, count 0
["ok"]
