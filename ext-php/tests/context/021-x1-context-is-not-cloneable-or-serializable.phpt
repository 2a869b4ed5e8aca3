--TEST--
Rule X1: Async\Context cannot be cloned, serialized, constructed twice or given properties by users; $scope->context is read-only
--FILE--
<?php
$free = new Async\Context();
try {
    $free->__construct();
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
$ctx = Async\currentContext();
try {
    clone $ctx;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
try {
    serialize($ctx);
} catch (Exception $e) {
    echo $e->getMessage(), "\n";
}
try {
    $ctx->foo = 1;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
$scope = new Async\Scope();
try {
    $scope->context = $ctx;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
try {
    unset($scope->context);
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
var_dump(isset($scope->context), (new ReflectionClass(Async\Context::class))->isFinal());
?>
--EXPECT--
Cannot call constructor twice
Trying to clone an uncloneable object of class Async\Context
Serialization of 'Async\Context' is not allowed
Cannot create dynamic property Async\Context::$foo
Cannot modify readonly property Async\Scope::$context
Cannot unset readonly property Async\Scope::$context
bool(true)
bool(true)
