--TEST--
Rule T4: foreach over a TaskSet yields $key => [$result, $error] as the tasks complete, each task leaving the set as it is delivered; iterating again finds nothing left
--FILE--
<?php
$set = new Async\TaskSet();
$set->spawnWithKey('c', function () { Async\delay(30); return 3; });
$set->spawnWithKey('a', function () { Async\delay(10); return 1; });
$set->spawnWithKey('b', function () { Async\delay(20); throw new Exception("two"); });
$set->close();
foreach ($set as $key => [$result, $error]) {
    echo "$key: ", $error ? "error " . $error->getMessage() : "result $result", ", count ", count($set), "\n";
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
