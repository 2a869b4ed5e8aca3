--TEST--
Rule S1: new Scope() is an independent root scope, not a child of the current scope
--FILE--
<?php
$outer = new Async\Scope();
$outer->spawn(function () use ($outer) {
    $root = new Async\Scope();
    $child = Async\Scope::inherit();
    var_dump(in_array($root, $outer->getChildScopes(), true));
    var_dump(in_array($child, $outer->getChildScopes(), true));
    var_dump(in_array($root, Async\Scope::global()->getChildScopes(), true));
});
$outer->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
bool(false)
bool(true)
bool(false)
