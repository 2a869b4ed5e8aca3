--TEST--
Rule S6 (seed 003, "Finally: Guaranteed Cleanup"): a cancelled coroutine runs its finally block
--DESCRIPTION--
closeConnection() of the seed is not defined; the periods are shortened.
--FILE--
<?php
$scope = new Async\Scope();

$scope->spawn(function() {
    try {
        echo "Starting work\n";
        Async\sleep(10000); // Long operation
        echo "Finished\n"; // Won't execute
    } finally {
        // This is GUARANTEED to execute
        echo "Cleaning up resources\n";
    }
});

Async\sleep(10);
$scope->cancel(); // Cancel after a moment
?>
--EXPECT--
Starting work
Cleaning up resources
