--TEST--
Rule S6 (seed 000, "Scope cancellation"): cancelling a scope before its coroutines start: none of them ever runs
--FILE--
<?php
use function Async\spawn;
use Async\Scope;

echo "Start\n";
$scope = new Scope();
$scope->spawn(function() {
    spawn(function() {
        Async\delay(1000);
        echo "Task 1\n";
    });

    spawn(function() {
        Async\delay(2000);
        echo "Task 2\n";
    });
});

$scope->cancel();
echo "End\n";
?>
--EXPECT--
Start
End
