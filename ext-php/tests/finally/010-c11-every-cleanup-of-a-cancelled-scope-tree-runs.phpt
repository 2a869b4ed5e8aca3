--TEST--
Rule C11/S10/C15: cancelling a scope tree runs every coroutine's cleanup, each in its own coroutine; a cleanup that throws goes through its scope's error flow
--DESCRIPTION--
The shape of a use-after-free found under valgrind (the callback's
Coroutine object was freed while the core still held it as host data).
Order (C2, FIFO): the main flow prints "end" first; then the cancelled
coroutines' handlers run in the order they were queued; "child cleanup"
runs too (cleanup is never skipped). The handler that throws belongs to a
coroutine of $parent: with no exception handler the error fails $parent
and waits for its owner (S10); when $parent is destroyed at the end it
moves to the global scope and is reported as uncaught (C15).
--FILE--
<?php
$parent = (new Async\Scope())->asNotSafely();
$parent->spawn(function () {
    $me = Async\currentCoroutine();
    $me->onFinally(function () { echo "first cleanup\n"; });
    $me->onFinally(function () { throw new RuntimeException("cleanup broke"); });
    Async\suspend();
});
$child = Async\Scope::inherit($parent);
$child->spawn(function () {
    Async\currentCoroutine()->onFinally(function () { echo "child cleanup\n"; });
    Async\suspend();
});
Async\suspend();
$parent->cancel();
Async\suspend();
echo "end\n";
?>
--EXPECTF--
end
first cleanup
child cleanup

Fatal error: Uncaught RuntimeException: cleanup broke in %s:6
Stack trace:
#0 [internal function]: {closure}(Object(Async\Coroutine))
#1 {main}
  thrown in %s on line 6
