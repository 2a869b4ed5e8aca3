--TEST--
Rule S11: the handler must be callable
--FILE--
<?php
$scope = new Async\Scope();
foreach (['setExceptionHandler', 'setChildScopeExceptionHandler', 'onFinally', 'finally'] as $m) {
    try {
        $scope->$m(42);
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
Async\Scope::setExceptionHandler(): Argument #1 ($exceptionHandler) must be a valid callback, no array or string given
Async\Scope::setChildScopeExceptionHandler(): Argument #1 ($exceptionHandler) must be a valid callback, no array or string given
Async\Scope::onFinally(): Argument #1 ($callback) must be a valid callback, no array or string given
Async\Scope::finally(): Argument #1 ($callback) must be a valid callback, no array or string given
