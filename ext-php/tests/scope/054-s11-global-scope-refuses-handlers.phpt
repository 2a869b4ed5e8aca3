--TEST--
Rule S11: setExceptionHandler() and setChildScopeExceptionHandler() on the global scope throw
--FILE--
<?php
$global = Async\Scope::global();
try {
    $global->setExceptionHandler(fn() => null);
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
try {
    $global->setChildScopeExceptionHandler(fn() => null);
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Cannot set an exception handler on the global scope
Cannot set a child scope exception handler on the global scope
