--TEST--
Rule S10: with no handle left on the failing coroutine, handlers run on it at once, before it completes: it is still running, its exception not yet its outcome
--FILE--
<?php
$parent = new Async\Scope();
$seen = null;
$parent->setChildScopeExceptionHandler(function ($s, Async\Coroutine $c, Throwable $e) use (&$seen) {
    var_dump($c === Async\currentCoroutine(), $c->isRunning(), $c->isCompleted(), $c->getException());
    $seen = $c;
});
$child = Async\Scope::inherit($parent);
$child->spawn(function () { throw new Exception("x"); });
$parent->awaitCompletion(Async\timeout(60000));
var_dump($seen->isCompleted(), $seen->getException()->getMessage());
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
NULL
bool(true)
string(1) "x"
