--TEST--
Rule S10/S11: a handler whose parameters do not fit throws a TypeError, which goes on to the parent like any exception it throws
--FILE--
<?php
$parent = new Async\Scope();
$child = Async\Scope::inherit($parent);
// The seed 003 signature (a single Throwable) does not fit (Scope, Coroutine, Throwable).
$child->setExceptionHandler(function (Throwable $e) { echo "not reached\n"; });
$parent->setExceptionHandler(function ($s, $c, Throwable $e) {
    echo get_class($e), "\n";
});
$child->spawn(function () { throw new Exception("x"); });
$parent->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
TypeError
