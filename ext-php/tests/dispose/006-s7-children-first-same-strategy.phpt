--TEST--
Rule S7: child scopes are disposed first, with the same strategy
--FILE--
<?php
$root = new Async\Scope();
$child = Async\Scope::inherit($root);
$root->spawn(fn() => Async\delay(20));
$child->spawn(fn() => Async\delay(20));
Async\suspend();
$root->disposeSafely();
var_dump($child->isClosed(), $child->isCancelled());
$root2 = new Async\Scope();
$child2 = Async\Scope::inherit($root2);
$child2->spawn(function () {
    try { Async\delay(60000); } catch (Async\CancellationError $e) { echo "child task: ", $e->getMessage(), "\n"; }
});
Async\suspend();
$root2->dispose();
var_dump($child2->isCancelled());
Async\suspend();
?>
--EXPECTF--
Warning: Coroutine is zombie at %s:5 in Scope disposed at %s:7 in %s on line 7

Warning: Coroutine is zombie at %s:4 in Scope disposed at %s:7 in %s on line 7
bool(true)
bool(false)

Warning: Coroutine spawned at %s:11 is cancelled by the Scope disposed at %s:15 in %s on line 15
bool(true)
child task: Scope disposed at %s:15
