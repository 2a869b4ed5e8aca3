--TEST--
Rule S7 (seed 000): dispose() cancels every unfinished coroutine, with a warning each
--DESCRIPTION--
The seed prints three "Coroutine is zombie" warnings for dispose(); docs/rules.md
S7 says dispose() cancels (no zombies) and warns about each unfinished
coroutine: the two that are left, with the core's wording.
--FILE--
<?php
use function Async\spawn;
use function Async\await;
use Async\Scope;

$scope = new Scope();

await($scope->spawn(function() {
    spawn(function() {
        Async\delay(1000);
        echo "Task 1\n";
    });

    spawn(function() {
        Async\delay(2000);
        echo "Task 2\n";
    });

    echo "Root task\n";
}));

$scope->dispose();
var_dump($scope->isCancelled(), count($scope->getCoroutines()));
Async\suspend();
var_dump(count($scope->getCoroutines()));
?>
--EXPECTF--
Root task

Warning: Coroutine spawned at %s:9 is cancelled by the Scope disposed at %s:22 in %s on line 22

Warning: Coroutine spawned at %s:14 is cancelled by the Scope disposed at %s:22 in %s on line 22
bool(true)
int(2)
int(0)
