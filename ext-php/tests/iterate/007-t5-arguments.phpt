--TEST--
Rule T5: iterate() refuses what is not iterable and a negative concurrency; an empty iterable returns at once
--FILE--
<?php
try {
    Async\iterate("nope", fn () => null);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    Async\iterate([1], fn () => null, -1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
Async\iterate([], function () { echo "not called\n"; });
echo "done\n";
?>
--EXPECT--
Async\iterate(): Argument #1 ($iterable) must be of type Traversable|array, string given
Async\iterate(): Argument #3 ($concurrency) must be between 0 and 4294967295
done
