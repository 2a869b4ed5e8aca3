--TEST--
Rule C17: while a scope still has coroutines, the collector does not take its context values away
--FILE--
<?php
class Node { public $scope; }
$scope = new Async\Scope();
$node = new Node;
$node->scope = $scope;
$scope->context->set('node', $node);
$c = $scope->spawn(function () {
    Async\delay(5);
    return Async\currentContext()->get('node') instanceof Node;
});
unset($scope, $node);
gc_collect_cycles();
var_dump(Async\await($c));
?>
--EXPECT--
bool(true)
