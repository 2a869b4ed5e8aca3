--TEST--
Rule G2: await_any_of() and await_any_of_or_fail() reject a negative count, what is not iterable, and non-awaitables
--FILE--
<?php
foreach (['await_any_of', 'await_any_of_or_fail'] as $fn) {
    $f = "Async\\$fn";
    try { $f(-2, []); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
    try { $f(1, 42); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
    try { $f(1, [Async\spawn(fn() => 1), new stdClass]); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
    try { $f(1, [], new stdClass); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
}
?>
--EXPECT--
Async\await_any_of(): Argument #1 ($count) must be greater than or equal to 0
Async\await_any_of(): Argument #2 ($triggers) must be of type Traversable|array, int given
Async\await_any_of(): Argument #2 ($triggers) must contain only Async\Awaitable objects, stdClass given
Async\await_any_of(): Argument #3 ($cancellation) must be of type ?Async\Awaitable, stdClass given
Async\await_any_of_or_fail(): Argument #1 ($count) must be greater than or equal to 0
Async\await_any_of_or_fail(): Argument #2 ($triggers) must be of type Traversable|array, int given
Async\await_any_of_or_fail(): Argument #2 ($triggers) must contain only Async\Awaitable objects, stdClass given
Async\await_any_of_or_fail(): Argument #3 ($cancellation) must be of type ?Async\Awaitable, stdClass given
