--TEST--
await_all() and friends reject what is not iterable or holds non-awaitables
--FILE--
<?php
foreach (['await_all', 'await_all_or_fail', 'await_any_or_fail', 'await_first_success'] as $fn) {
    $f = "Async\\$fn";
    try { $f(42); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
    try { $f([Async\spawn(fn() => 1), 'nope']); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
    try { $f([], new stdClass); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
}
?>
--EXPECT--
Async\await_all(): Argument #1 ($triggers) must be of type Traversable|array, int given
Async\await_all(): Argument #1 ($triggers) must contain only Async\Awaitable objects, string given
Async\await_all(): Argument #2 ($cancellation) must be of type ?Async\Awaitable, stdClass given
Async\await_all_or_fail(): Argument #1 ($triggers) must be of type Traversable|array, int given
Async\await_all_or_fail(): Argument #1 ($triggers) must contain only Async\Awaitable objects, string given
Async\await_all_or_fail(): Argument #2 ($cancellation) must be of type ?Async\Awaitable, stdClass given
Async\await_any_or_fail(): Argument #1 ($triggers) must be of type Traversable|array, int given
Async\await_any_or_fail(): Argument #1 ($triggers) must contain only Async\Awaitable objects, string given
Async\await_any_or_fail(): Argument #2 ($cancellation) must be of type ?Async\Awaitable, stdClass given
Async\await_first_success(): Argument #1 ($triggers) must be of type Traversable|array, int given
Async\await_first_success(): Argument #1 ($triggers) must contain only Async\Awaitable objects, string given
Async\await_first_success(): Argument #2 ($cancellation) must be of type ?Async\Awaitable, stdClass given
