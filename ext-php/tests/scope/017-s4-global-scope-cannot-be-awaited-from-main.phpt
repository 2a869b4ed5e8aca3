--TEST--
Rule S4: the main flow belongs to the global scope, so awaiting it from there is refused
--FILE--
<?php
try {
    Async\Scope::global()->awaitCompletion(Async\timeout(10));
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Awaiting a scope from within itself or its child scope would cause a deadlock
