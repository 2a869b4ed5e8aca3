--TEST--
Rule S10: handlers run on the failing coroutine before it completes: it is still running, its exception not yet its outcome
--FILE--
<?php
$parent = new Async\Scope();
$parent->setChildScopeExceptionHandler(function ($s, Async\Coroutine $c, Throwable $e) {
    var_dump($c === Async\currentCoroutine(), $c->isRunning(), $c->isCompleted(), $c->getException());
});
$child = Async\Scope::inherit($parent);
$co = $child->spawn(function () { throw new Exception("x"); });
$parent->awaitCompletion(Async\timeout(60000));
var_dump($co->isCompleted(), $co->getException()->getMessage());
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
NULL
bool(true)
string(1) "x"
