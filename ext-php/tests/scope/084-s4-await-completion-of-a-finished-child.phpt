--TEST--
Rule S4: awaiting a child scope whose parent was cancelled throws at once (the child was cancelled with it)
--FILE--
<?php
$parent = new Async\Scope();
$child = Async\Scope::inherit($parent);
$parent->cancel(new Async\CancellationError("parent gone"));
try {
    $child->awaitCompletion(Async\timeout(60000));
} catch (Async\CancellationError $e) {
    echo "child: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
child: parent gone
