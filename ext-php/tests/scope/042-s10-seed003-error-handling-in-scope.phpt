--TEST--
Rule S10 (seed 003, "Error Handling in Scope"): the handler suppresses the error; the other coroutine is not cancelled
--DESCRIPTION--
The seed's handler takes (Throwable $e) and awaitCompletion() has no
argument; docs/rules.md (S11) fixes the handler arguments to (Scope, Coroutine,
Throwable) and makes the cancellation argument mandatory (S4, S11).
--FILE--
<?php
$scope = new Async\Scope();

// Set up an error handler
$scope->setExceptionHandler(function(Async\Scope $scope, Async\Coroutine $coroutine, Throwable $e) {
    echo "Error in scope: " . $e->getMessage() . "\n";
    // Can log it, send to Sentry, etc.
});

$scope->spawn(function() {
    throw new Exception("Something broke!");
});

$scope->spawn(function() {
    echo "I'm working fine\n";
});

$scope->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
Error in scope: Something broke!
I'm working fine
