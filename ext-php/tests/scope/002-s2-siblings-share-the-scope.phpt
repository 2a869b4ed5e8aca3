--TEST--
Rule S2: spawn() uses the current scope; the siblings and their spawner belong to the same Scope object
--FILE--
<?php
$scope = new Async\Scope();
$seen = [];
$scope->spawn(function () use (&$seen) {
    $seen[] = Async\currentCoroutine()->getScope();
    Async\spawn(function () use (&$seen) {
        $seen[] = Async\currentCoroutine()->getScope();
    });
});
$scope->awaitCompletion(Async\timeout(60000));
var_dump(count($seen), $seen[0] === $scope, $seen[1] === $scope);
var_dump(Async\currentCoroutine()->getScope() === Async\Scope::global());
?>
--EXPECT--
int(2)
bool(true)
bool(true)
bool(true)
