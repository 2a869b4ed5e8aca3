--TEST--
Rule C4/S14: await() accepts only FutureLike objects, and an Awaitable as cancellation
--FILE--
<?php
foreach ([42, "x", new stdClass, new Async\Scope()] as $bad) {
    try {
        Async\await($bad);
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    Async\await(Async\spawn(fn() => 1), new stdClass);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(Async\await(Async\spawn(fn() => 1), null));
?>
--EXPECT--
Async\await(): Argument #1 ($awaitable) must be of type Async\FutureLike, int given
Async\await(): Argument #1 ($awaitable) must be of type Async\FutureLike, string given
Async\await(): Argument #1 ($awaitable) must be of type Async\FutureLike, stdClass given
Async\await(): Argument #1 ($awaitable) must be of type Async\FutureLike, Async\Scope given
Async\await(): Argument #2 ($cancellation) must be of type ?Async\Awaitable, stdClass given
int(1)
