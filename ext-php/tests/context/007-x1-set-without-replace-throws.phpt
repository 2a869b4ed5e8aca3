--TEST--
Rule X1: set() of a key already in this context throws AsyncException unless $replace; a parent's key can be shadowed
--FILE--
<?php
$scope = new Async\Scope();
$ctx = $scope->context;
$ctx->set('k', 1);
try {
    $ctx->set('k', 2);
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
var_dump($ctx->get('k'));
$ctx->set('k', 3, true);
var_dump($ctx->get('k'));
$ctx->set('k', 4, replace: true);
var_dump($ctx->get('k'));
$key = new stdClass;
$ctx->set($key, 'a');
try {
    $ctx->set($key, 'b');
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
$child = Async\Scope::inherit($scope);
$child->context->set('k', 'shadow');
var_dump($child->context->get('k'), $ctx->get('k'));
?>
--EXPECT--
The key "k" is already set in this context; pass $replace = true to replace it
int(1)
int(3)
int(4)
The stdClass key is already set in this context; pass $replace = true to replace it
string(6) "shadow"
int(4)
