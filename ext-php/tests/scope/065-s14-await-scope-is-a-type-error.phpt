--TEST--
Rule S14: a Scope is not awaitable: await($scope) is a TypeError, and a Scope is no cancellation either
--FILE--
<?php
$scope = new Async\Scope();
try {
    Async\await($scope);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    Async\await(Async\spawn(fn() => 1), $scope);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    Async\await_all([$scope]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump($scope instanceof Async\Awaitable);
?>
--EXPECT--
Async\await(): Argument #1 ($awaitable) must be of type Async\FutureLike, Async\Scope given
Async\await(): Argument #2 ($cancellation) must be of type ?Async\Awaitable, Async\Scope given
Async\await_all(): Argument #1 ($triggers) must contain only Async\Awaitable objects, Async\Scope given
bool(false)
