--TEST--
Rule C1: spawn() rejects what is not callable with a TypeError
--FILE--
<?php
foreach ([42, 'no_such_function', [1, 2], null] as $bad) {
    try {
        Async\spawn($bad);
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    Async\spawn();
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Async\spawn(): Argument #1 ($task) must be a valid callback, no array or string given
Async\spawn(): Argument #1 ($task) must be a valid callback, function "no_such_function" not found or invalid function name
Async\spawn(): Argument #1 ($task) must be a valid callback, first array member is not a valid class name or object
Async\spawn(): Argument #1 ($task) must be a valid callback, no array or string given
Async\spawn() expects at least 1 argument, 0 given
