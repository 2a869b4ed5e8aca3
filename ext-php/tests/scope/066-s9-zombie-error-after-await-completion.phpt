--TEST--
Rule S9/S10: a zombie does not block awaitCompletion(); if it fails later, nobody waits and the error waits for the scope's owner
--FILE--
<?php
$parent = new Async\Scope();
$parent->spawn(function () {
    $child = Async\Scope::inherit();
    $child->spawn(function () { Async\delay(20); throw new RuntimeException("zombie failure"); });
    // The child's owner lets go: the task goes on as a zombie (S8).
});
$parent->awaitCompletion(Async\timeout(60000));
echo "awaitCompletion returned\n";
Async\delay(40);
var_dump($parent->isCancelled());
try {
    $parent->awaitCompletion(Async\timeout(60000));
} catch (RuntimeException $e) {
    echo "later awaiter: ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
Warning: Coroutine is zombie at %s:5 in Scope created at %s:4, disposed when released in %s on line 4
awaitCompletion returned
bool(true)
later awaiter: zombie failure
