--TEST--
Rule S10: an exception handler that throws hands its exception to the parent scope
--FILE--
<?php
$parent = new Async\Scope();
$child = Async\Scope::inherit($parent);
$child->setExceptionHandler(function ($s, $c, Throwable $e) {
    echo "child handler: ", $e->getMessage(), "\n";
    throw new RuntimeException("rethrown by the handler", 0, $e);
});
$parent->setExceptionHandler(function ($s, $c, Throwable $e) {
    echo "parent handler: ", $e->getMessage(), " (previous: ", $e->getPrevious()->getMessage(), ")\n";
});
$child->spawn(function () { throw new LogicException("original"); });
$parent->awaitCompletion(Async\timeout(60000));
var_dump($child->isCancelled(), $parent->isCancelled());
?>
--EXPECT--
child handler: original
parent handler: rethrown by the handler (previous: original)
bool(false)
bool(false)
