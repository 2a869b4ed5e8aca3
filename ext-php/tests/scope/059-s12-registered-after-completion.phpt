--TEST--
Rule S12: a callback registered on a completed scope runs at once (in its own coroutine)
--FILE--
<?php
$scope = new Async\Scope();
$scope->cancel();
$scope->onFinally(function (Async\Scope $s) {
    echo "late callback, closed: ", var_export($s->isClosed(), true), "\n";
});
echo "registered\n";
Async\suspend();
?>
--EXPECT--
registered
late callback, closed: true
