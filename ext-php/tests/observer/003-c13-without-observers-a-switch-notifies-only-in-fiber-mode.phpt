--TEST--
Rule C13: when async.fiber_observers=auto sees no observer (the probe is no Zend extension), coroutine switches tell the observers nothing until the request's first Fiber; from then on every switch does (PHP keeps the function observers' current frame per context), the running coroutine first switching from the main flow's context
--SKIPIF--
<?php if (extension_loaded('xdebug')) die('skip Xdebug registers a fiber observer of its own: the premise is that none is loaded'); ?>
--FILE--
<?php
use function Async\{spawn, await, suspend};

fiber_probe_reset();
await(spawn(function () { echo "before: ", fiber_probe_current(), "\n"; suspend(); }));
echo count(fiber_probe_events()), " events before the first Fiber\n";
$a = spawn(function () {
    $f = new Fiber(fn() => print("fiber: " . fiber_probe_current() . "\n"));
    $f->start();
    suspend();
});
$b = spawn(function () { echo "b: ", fiber_probe_current(), "\n"; });
await($a);
await($b);
echo implode("\n", fiber_probe_events()), "\n";
?>
--EXPECT--
before: #0 main RUNNING
0 events before the first Fiber
fiber: #2 fiber RUNNING
b: #3 coroutine RUNNING
init #1 coroutine
switch #0 main RUNNING -> #1 coroutine INIT
init #2 fiber
switch #1 coroutine RUNNING -> #2 fiber INIT
switch #2 fiber DEAD -> #1 coroutine SUSPENDED
destroy #2 fiber DEAD
init #3 coroutine
switch #1 coroutine RUNNING -> #3 coroutine INIT
switch #3 coroutine DEAD -> #1 coroutine SUSPENDED
destroy #3 coroutine DEAD
switch #1 coroutine DEAD -> #0 main SUSPENDED
destroy #1 coroutine DEAD
