--TEST--
Rule S6 (seed 000): cancel() with a CancellationError of one's own; the queued coroutine never runs
--DESCRIPTION--
The seed's blocking sleep(1) is replaced by Async\delay() (C18): the
coroutine never starts either way.
--FILE--
<?php
use Async\Scope;

$scope = new Scope();

$c = $scope->spawn(function() {
    Async\delay(1000);
    echo "Task 1\n";
});

$scope->cancel(new Async\CancellationError('Task was cancelled'));
var_dump($c->isCancelled(), $c->getException()->getMessage());
?>
--EXPECT--
bool(true)
string(18) "Task was cancelled"
