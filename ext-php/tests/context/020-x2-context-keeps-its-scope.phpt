--TEST--
Rule X2: a Context object keeps its scope's values reachable after the Scope object is gone
--FILE--
<?php
$scope = new Async\Scope();
$ctx = $scope->context;
$ctx->set('k', 'still here');
unset($scope);
var_dump($ctx->get('k'));
?>
--EXPECT--
string(10) "still here"
