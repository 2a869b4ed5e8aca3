--TEST--
Rule S6 (seed 000, "Self-cancellation of Scope"): a coroutine may cancel its own scope and keeps running
--FILE--
<?php
use Async\Scope;

$scope = new Scope();

$c = $scope->spawn(function() use ($scope) {
    $scope->cancel(new \Async\CancellationError("Scope cancelled"));
    echo "This executes\n";
    return "result";
});
try {
    Async\await($c);
} catch (Async\CancellationError $e) {
    echo "await: ", $e->getMessage(), "\n";
}
var_dump($scope->isCancelled(), $c->isCancelled());
?>
--EXPECT--
This executes
await: Scope cancelled
bool(true)
bool(true)
