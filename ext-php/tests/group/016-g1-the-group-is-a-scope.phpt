--TEST--
Rule G1: the group's scope is a child of the current scope; coroutines spawned inside tasks land in it; provideScope() gives it
--FILE--
<?php
$outer = new Async\Scope();
$r = Async\await($outer->spawn(function () use ($outer) {
    $g = new Async\TaskGroup();
    $scope = $g->getScope();
    $task = $g->spawn(function () {
        return Async\await(Async\spawn(fn() => Async\currentCoroutine()->getScope()));
    });
    return [
        $scope->getChildScopes() === [],
        in_array($scope, $outer->getChildScopes(), true),
        Async\await($task) === $scope,
        $g->provideScope() === $scope,
        $g->getScope() === $scope,
    ];
}));
var_dump($r);
?>
--EXPECT--
array(5) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  bool(true)
  [3]=>
  bool(true)
  [4]=>
  bool(true)
}
