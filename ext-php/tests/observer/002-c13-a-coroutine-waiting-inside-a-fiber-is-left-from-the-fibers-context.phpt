--TEST--
Rule C13: a coroutine that waits inside a Fiber is left from the fiber's context and comes back to it; the fiber keeps the status PHP gave it (RUNNING) meanwhile
--INI--
async.fiber_observers=1
--FILE--
<?php
use function Async\{spawn, await, suspend};

fiber_probe_reset();
$a = spawn(function () {
    $f = new Fiber(function () {
        echo "in the fiber: ", fiber_probe_current(), "\n";
        suspend();                                  // the coroutine leaves from the fiber
        echo "back in the fiber: ", fiber_probe_current(), "\n";
    });
    $f->start();
    echo "after the fiber: ", fiber_probe_current(), "\n";
});
$b = spawn(function () { echo "b: ", fiber_probe_current(), "\n"; });
await($a);
await($b);
echo implode("\n", fiber_probe_events()), "\n";
?>
--EXPECT--
in the fiber: #2 fiber RUNNING
b: #3 coroutine RUNNING
back in the fiber: #2 fiber RUNNING
after the fiber: #1 coroutine RUNNING
init #1 coroutine
switch #0 main RUNNING -> #1 coroutine INIT
init #2 fiber
switch #1 coroutine RUNNING -> #2 fiber INIT
init #3 coroutine
switch #2 fiber RUNNING -> #3 coroutine INIT
switch #3 coroutine DEAD -> #2 fiber RUNNING
destroy #3 coroutine DEAD
switch #2 fiber DEAD -> #1 coroutine SUSPENDED
destroy #2 fiber DEAD
switch #1 coroutine DEAD -> #0 main SUSPENDED
destroy #1 coroutine DEAD
