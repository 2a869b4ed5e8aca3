--TEST--
Rule S6 (seed 003, "Cancelling All Coroutines in a Scope"): every coroutine of the scope receives the cancellation
--DESCRIPTION--
The seed's periods (Async\sleep(1000) in the workers, 3000 ms in the main
flow) become suspensions, so that how many times each worker runs does not
depend on the machine's speed: the main flow lets them run three rounds.
AsyncCancellation is the alias of CancellationError (docs/rules.md, "Names and aliases").
--FILE--
<?php
$scope = new Async\Scope();

$scope->spawn(function() {
    try {
        while (true) {
            echo "Working...\n";
            Async\suspend();
        }
    } catch (Async\AsyncCancellation $e) {
        echo "I was cancelled!\n";
    }
});

$scope->spawn(function() {
    try {
        while (true) {
            echo "Also working...\n";
            Async\suspend();
        }
    } catch (Async\AsyncCancellation $e) {
        echo "Me too!\n";
    }
});

// Works for three rounds
Async\suspend();
Async\suspend();
Async\suspend();

// Cancel ALL coroutines in scope
$scope->cancel();
$scope->awaitAfterCancellation(null, Async\timeout(60000));
?>
--EXPECT--
Working...
Also working...
Working...
Also working...
Working...
Also working...
I was cancelled!
Me too!
