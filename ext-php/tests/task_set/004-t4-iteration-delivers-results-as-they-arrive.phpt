--TEST--
Rule T4: foreach over a TaskSet yields $key => [$result, $error] as the tasks complete, each task leaving the set as it is delivered; iterating again finds nothing left
--FILE--
<?php
// Each task waits for a gate opened when the result before it was
// delivered, so they finish in the order a, b, c (not the order they were
// spawned in) on any machine and under valgrind.
$gate = ['a' => new Async\FutureState(), 'b' => new Async\FutureState(), 'c' => new Async\FutureState()];
$set = new Async\TaskSet();
$set->spawnWithKey('c', function () use ($gate) { (new Async\Future($gate['c']))->await(); return 3; });
$set->spawnWithKey('a', function () use ($gate) { (new Async\Future($gate['a']))->await(); return 1; });
$set->spawnWithKey('b', function () use ($gate) { (new Async\Future($gate['b']))->await(); throw new Exception("two"); });
$set->close();
$gate['a']->complete(null);
$after = ['a' => 'b', 'b' => 'c'];
foreach ($set as $key => [$result, $error]) {
    echo "$key: ", $error ? "error " . $error->getMessage() : "result $result", ", count ", count($set), "\n";
    if (isset($after[$key])) {
        $gate[$after[$key]]->complete(null);
    }
}
foreach ($set as $key => $_) {
    echo "not reached\n";
}
echo "count ", count($set), "\n";
try {
    foreach ($set as &$byRef) {}
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
a: result 1, count 2
b: error two, count 1
c: result 3, count 0
count 0
Cannot iterate TaskSet by reference
