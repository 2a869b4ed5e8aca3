--TEST--
Rule C13: every switch between PHP coroutines, the main flow included, is a fiber switch to the fiber observers: one context per coroutine (kind Async\Coroutine), init before its first switch, INIT then RUNNING, SUSPENDED while away, DEAD on its last switch, then destroy; a coroutine cancelled before it started has none
--INI--
async.fiber_observers=1
--FILE--
<?php
use function Async\{spawn, await, suspend};

fiber_probe_reset();
$a = spawn(function () { echo "a: ", fiber_probe_current(), "\n"; suspend(); echo "a again: ", fiber_probe_current(), "\n"; });
$b = spawn(function () { echo "b: ", fiber_probe_current(), "\n"; suspend(); });
$never = spawn(fn() => print("never runs\n"));
$never->cancel();
await($a);
await($b);
echo "main: ", fiber_probe_current(), "\n";
echo implode("\n", fiber_probe_events()), "\n";
?>
--EXPECT--
a: #1 coroutine RUNNING
b: #2 coroutine RUNNING
a again: #1 coroutine RUNNING
main: #0 main RUNNING
init #1 coroutine
switch #0 main RUNNING -> #1 coroutine INIT
init #2 coroutine
switch #1 coroutine RUNNING -> #2 coroutine INIT
switch #2 coroutine RUNNING -> #1 coroutine SUSPENDED
switch #1 coroutine DEAD -> #2 coroutine SUSPENDED
destroy #1 coroutine DEAD
switch #2 coroutine DEAD -> #0 main SUSPENDED
destroy #2 coroutine DEAD
