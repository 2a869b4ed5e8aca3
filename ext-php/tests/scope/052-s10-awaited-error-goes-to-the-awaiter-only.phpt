--TEST--
Rule S10/C4: an error an awaiter receives does not reach the scope (no handler, no cancellation)
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function () { echo "handler must not run\n"; });
$sibling = $scope->spawn(function () { Async\delay(10); return "sibling done"; });
$failing = $scope->spawn(function () { throw new Exception("boom"); });
try {
    Async\await($failing);
} catch (Exception $e) {
    echo "awaiter: ", $e->getMessage(), "\n";
}
echo Async\await($sibling), "\n";
var_dump($scope->isCancelled());
?>
--EXPECT--
awaiter: boom
sibling done
bool(false)
