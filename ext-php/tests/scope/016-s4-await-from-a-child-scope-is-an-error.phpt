--TEST--
Rule S4: awaitCompletion() from a coroutine of a descendant scope throws AsyncException; from a sibling it waits
--FILE--
<?php
$parent = new Async\Scope();
$child = Async\Scope::inherit($parent);
$sibling = new Async\Scope();
$child->spawn(function () use ($parent) {
    try {
        $parent->awaitCompletion(Async\timeout(1000));
    } catch (Async\AsyncException $e) {
        echo "from the child: deadlock refused\n";
    }
});
$parent->spawn(fn() => Async\delay(10));
$sibling->spawn(function () use ($parent) {
    $parent->awaitCompletion(Async\timeout(60000));
    echo "from a sibling: waited\n";
});
$sibling->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
from the child: deadlock refused
from a sibling: waited
