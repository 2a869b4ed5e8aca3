--TEST--
Rules G2 and S10: a coroutine a combinator already took from an iterator or generator that then throws counts as observed: the combinator throws the iterator's exception, and the coroutine's later failure does not escalate as uncaught
--FILE--
<?php
function handed_over() {
    yield Async\spawn(function () { Async\delay(10); throw new RuntimeException("late failure"); });
    throw new LogicException("the generator throws");
}
foreach (['await_all', 'await_any_or_fail', 'await_first_success', 'await_all_or_fail'] as $combinator) {
    try {
        ("Async\\$combinator")(handed_over());
    } catch (LogicException $e) {
        echo "$combinator: ", $e->getMessage(), "\n";
    }
}
try {
    Async\await_any_of(1, new ArrayIterator([Async\spawn(function () { Async\delay(10); throw new RuntimeException("x"); }), "not awaitable"]));
} catch (TypeError $e) {
    echo "a bad item: TypeError\n";
}
Async\delay(30);
echo "the failures did not escalate\n";
?>
--EXPECT--
await_all: the generator throws
await_any_or_fail: the generator throws
await_first_success: the generator throws
await_all_or_fail: the generator throws
a bad item: TypeError
the failures did not escalate
