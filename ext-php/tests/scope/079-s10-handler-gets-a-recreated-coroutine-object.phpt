--TEST--
Rule S10/C12: an error that moves up later is handed over with a Coroutine object for the failed coroutine, even if the script dropped its own
--FILE--
<?php
$parent = new Async\Scope();
$parent->setExceptionHandler(function ($s, Async\Coroutine $c, Throwable $e) use (&$id) {
    echo "handled: ", $e->getMessage(), ", same coroutine: ", var_export($c->getId() === $id, true), "\n";
    var_dump($c->isCompleted(), $c->getException() === $e);
});
$child = Async\Scope::inherit($parent);
$co = $child->spawn(function () { throw new Exception("late"); });
$id = $co->getId();
unset($co);
Async\suspend();
echo "the error waits in the child; its owner lets go\n";
unset($child);
?>
--EXPECT--
the error waits in the child; its owner lets go
handled: late, same coroutine: true
bool(true)
bool(true)
