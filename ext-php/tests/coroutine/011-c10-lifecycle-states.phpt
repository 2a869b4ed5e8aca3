--TEST--
Rule C10: state methods follow Created -> Queued -> Running <-> Suspended -> Completed
--DESCRIPTION--
A coroutine that yielded with suspend() is suspended (started, neither
running nor completed) and queued at the same time.
--FILE--
<?php
function states(Async\Coroutine $c): string {
    $s = [];
    foreach (['isQueued', 'isStarted', 'isRunning', 'isSuspended', 'isCancellationRequested', 'isCancelled', 'isCompleted'] as $m) {
        if ($c->$m()) $s[] = substr($m, 2);
    }
    return implode(',', $s);
}
$c = Async\spawn(function () use (&$c) {
    echo "inside: ", states($c), "\n";
    Async\suspend();
    echo "inside again: ", states($c), "\n";
});
echo "spawned: ", states($c), "\n";
Async\suspend();
echo "after one turn: ", states($c), "\n";
Async\await($c);
echo "completed: ", states($c), "\n";
?>
--EXPECT--
spawned: Queued
inside: Started,Running
after one turn: Queued,Started,Suspended
inside again: Started,Running
completed: Started,Completed
