--TEST--
Rule G1/X2: tasks see the context of the scope the group was made in (the group's scope is its child)
--FILE--
<?php
$scope = new Async\Scope();
$scope->context->set('tenant', 'acme');
$r = Async\await($scope->spawn(function () {
    $g = new Async\TaskGroup();
    $g->spawn(fn() => Async\currentContext()->get('tenant'));
    $g->getScope()->context->set('group-only', 1);
    $g->spawn(fn() => Async\currentContext()->hasLocal('group-only'));
    return Async\await($g->all());
}));
var_dump($r, $scope->context->has('group-only'));
?>
--EXPECT--
array(2) {
  [0]=>
  string(4) "acme"
  [1]=>
  bool(true)
}
bool(false)
