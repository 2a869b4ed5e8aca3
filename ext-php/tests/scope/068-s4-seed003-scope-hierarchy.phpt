--TEST--
Rule S4 (seed 003, "Scope Hierarchy"): a child scope created in a coroutine, awaited there; the main scope awaited by the main flow
--DESCRIPTION--
The seed calls awaitCompletion() without argument; docs/rules.md (S4) makes the
cancellation argument mandatory.
--FILE--
<?php
$mainScope = new Async\Scope();

$mainScope->spawn(function() {
    echo "Main task\n";

    // Create a child scope
    $childScope = Async\Scope::inherit();

    $childScope->spawn(function() {
        echo "Subtask 1\n";
    });

    $childScope->spawn(function() {
        echo "Subtask 2\n";
    });

    // Wait for subtasks to complete
    $childScope->awaitCompletion(Async\timeout(60000));

    echo "All subtasks done\n";
});

$mainScope->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
Main task
Subtask 1
Subtask 2
All subtasks done
