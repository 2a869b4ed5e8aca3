--TEST--
Rule S10: a scope's own handler comes first; the parent's child-scope handler takes what child scopes do not handle; a rethrow continues at the parent as the parent's own error
--DESCRIPTION--
The core's reading of "if it throws, the parent gets that" (scope.h): the
new exception continues at the parent level, so the parent's own handler
sees it, not the parent's child-scope handler.
--FILE--
<?php
$parent = new Async\Scope();
$parent->setChildScopeExceptionHandler(function ($s, $c, Throwable $e) use ($parent) {
    echo "parent's child-scope handler: ", $e->getMessage(), "\n";
    var_dump($s === $parent);
});
$parent->setExceptionHandler(function ($s, $c, Throwable $e) {
    echo "parent's own handler: ", $e->getMessage(), "\n";
});
$a = Async\Scope::inherit($parent);
$a->setExceptionHandler(function ($s, $c, Throwable $e) { echo "a's own handler: ", $e->getMessage(), "\n"; });
$b = Async\Scope::inherit($parent);
$b->setExceptionHandler(function ($s, $c, Throwable $e) { throw new RuntimeException("b rethrows " . $e->getMessage()); });
$c = Async\Scope::inherit($parent);
$a->spawn(function () { throw new Exception("in a"); });
$b->spawn(function () { throw new Exception("in b"); });
$c->spawn(function () { throw new Exception("in c"); });
$parent->awaitCompletion(Async\timeout(60000));
var_dump($parent->isCancelled());
?>
--EXPECT--
a's own handler: in a
parent's own handler: b rethrows in b
parent's child-scope handler: in c
bool(true)
bool(false)
