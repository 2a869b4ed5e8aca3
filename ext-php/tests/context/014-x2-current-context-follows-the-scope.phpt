--TEST--
Rule X2: currentContext() is the current scope's context: the same object as $scope->context and getContext()
--FILE--
<?php
$scope = new Async\Scope();
$ctx = $scope->context;
var_dump($ctx === $scope->getContext());
$inside = Async\await($scope->spawn(fn() => Async\currentContext()));
var_dump($inside === $ctx);
var_dump(Async\currentContext() === Async\rootContext());
var_dump(Async\currentContext() === Async\Scope::global()->context);
var_dump(Async\current_context() === Async\currentContext(), Async\root_context() === Async\rootContext());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
