--TEST--
Rule S10: with nobody waiting, the error waits in its scope: a later awaitCompletion() receives it
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () { throw new RuntimeException("nobody was waiting"); });
Async\suspend();
var_dump($scope->isCancelled());
try {
    $scope->awaitCompletion(Async\timeout(60000));
} catch (RuntimeException $e) {
    echo "later: ", $e->getMessage(), "\n";
}
unset($scope);
echo "received: dropping the scope reports nothing\n";
?>
--EXPECT--
bool(true)
later: nobody was waiting
received: dropping the scope reports nothing
