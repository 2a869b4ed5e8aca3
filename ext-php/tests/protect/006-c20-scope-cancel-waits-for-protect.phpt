--TEST--
Rule C20/S6: a scope cancelled while a coroutine is inside protect() gets the cancellation after the section
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () {
    Async\protect(function () {
        Async\delay(10);
        echo "transaction committed\n";
    });
    echo "not reached\n";
});
Async\suspend();
$scope->cancel();
$scope->awaitAfterCancellation(null, Async\timeout(60000));
echo "scope done\n";
?>
--EXPECT--
transaction committed
scope done
