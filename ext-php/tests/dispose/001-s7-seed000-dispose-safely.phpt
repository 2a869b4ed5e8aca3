--TEST--
Rule S7 (seed 000, "Scope disposal"): disposeSafely() turns the unfinished coroutines into zombies, with a warning each; they finish
--DESCRIPTION--
Periods shortened (10 and 20 ms for the seed's 1000 and 2000).
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use Async\Scope;

$scope = new Scope();

await($scope->spawn(function() {
    spawn(function() {
        Async\delay(10);
        echo "Task 1\n";
    });

    spawn(function() {
        Async\delay(20);
        echo "Task 2\n";
    });

    echo "Root task\n";
}));

$scope->disposeSafely();
?>
--EXPECTF--
Root task

Warning: Coroutine is zombie at %s:9 in Scope disposed at %s:22 in %s on line 22

Warning: Coroutine is zombie at %s:14 in Scope disposed at %s:22 in %s on line 22
Task 1
Task 2
