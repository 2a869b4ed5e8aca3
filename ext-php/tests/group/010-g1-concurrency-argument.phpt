--TEST--
Rule G1: the concurrency is null (no limit) or at least 1; other values are a ValueError, other types a TypeError
--FILE--
<?php
foreach ([0, -1] as $n) {
    try {
        new Async\TaskGroup($n);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    new Async\TaskGroup("many");
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(count(new Async\TaskGroup(null)), count(new Async\TaskGroup(1)));
?>
--EXPECT--
Async\TaskGroup::__construct(): Argument #1 ($concurrency) must be null or between 1 and 4294967295
Async\TaskGroup::__construct(): Argument #1 ($concurrency) must be null or between 1 and 4294967295
Async\TaskGroup::__construct(): Argument #1 ($concurrency) must be of type ?int, string given
int(0)
int(0)
