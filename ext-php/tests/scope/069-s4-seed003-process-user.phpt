--TEST--
Rule S4 (seed 003, "Scope Concept"): processUser() awaiting the scope it runs in is refused (it would wait for itself)
--DESCRIPTION--
The seed's processUser() uses the global $scope, runs inside it and awaits
it: by S4 that throws AsyncException (it would deadlock). Written here with
$scope passed in, and with a scope of its own as docs/rules.md intends; sendEmail()
and friends are stand-ins. Async\Timeout is the class timeout() returns.
--FILE--
<?php
function sendEmail($id) { Async\delay(5); echo "email $id\n"; }
function updateCache($id) { Async\delay(1); echo "cache $id\n"; }
function logActivity($id) { echo "log $id\n"; }

function processUser($userId, Async\Scope $scope): string {
    Async\spawn(sendEmail(...), $userId);
    Async\spawn(updateCache(...), $userId);
    Async\spawn(logActivity(...), $userId);

    // Wait until all coroutines in scope finish
    try {
        $scope->awaitCompletion(new Async\Timeout(1000));
    } catch (Async\AsyncException $e) {
        echo "refused: it runs in that scope\n";
    }
    return "OK";
}

function processUserProperly($userId): string {
    $scope = Async\Scope::inherit();
    $scope->spawn(sendEmail(...), $userId);
    $scope->spawn(updateCache(...), $userId);
    $scope->spawn(logActivity(...), $userId);
    $scope->awaitCompletion(new Async\Timeout(1000));
    return "OK";
}

$scope = new Async\Scope();
$scope->spawn(processUser(...), 123, $scope);
$scope->awaitCompletion(new Async\Timeout(5000));
echo "---\n";
$scope2 = new Async\Scope();
echo Async\await($scope2->spawn(processUserProperly(...), 456)), "\n";
?>
--EXPECT--
refused: it runs in that scope
log 123
cache 123
email 123
---
log 456
cache 456
email 456
OK
