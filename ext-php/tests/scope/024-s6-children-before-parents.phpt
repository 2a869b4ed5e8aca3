--TEST--
Rule S6: cancel() cancels the whole subtree, children before parents
--FILE--
<?php
$root = new Async\Scope();
$child = Async\Scope::inherit($root);
$grandchild = Async\Scope::inherit($child);
foreach (['root' => $root, 'child' => $child, 'grandchild' => $grandchild] as $name => $s) {
    $s->spawn(function () use ($name) {
        try {
            Async\delay(60000);
        } catch (Async\CancellationError $e) {
            echo "$name cancelled\n";
        }
    });
}
Async\suspend();
$root->cancel();
$root->awaitAfterCancellation(null, Async\timeout(60000));
var_dump($root->isCancelled(), $child->isCancelled(), $grandchild->isCancelled());
?>
--EXPECT--
grandchild cancelled
child cancelled
root cancelled
bool(true)
bool(true)
bool(true)
