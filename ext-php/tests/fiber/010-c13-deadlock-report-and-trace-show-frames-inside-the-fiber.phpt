--TEST--
Rule C13: getTrace() of a coroutine suspended inside a Fiber shows the frames inside the fiber and those below it; the deadlock report names the line inside the fiber
--FILE--
<?php
function inside_the_fiber($main) {
    Async\suspend();
    Async\await($main);
}
function start_the_fiber($main) {
    $f = new Fiber(function () use ($main) { inside_the_fiber($main); });
    $f->start();
}
$main = Async\currentCoroutine();
$co = Async\spawn('start_the_fiber', $main);
Async\suspend();
foreach ($co->getTrace(DEBUG_BACKTRACE_IGNORE_ARGS) as $i => $frame) {
    echo "#$i ", $frame['class'] ?? '', $frame['type'] ?? '', $frame['function'], isset($frame['line']) ? " line " . $frame['line'] : "", "\n";
}
Async\await($co);
?>
--EXPECTF--
#0 Async\suspend line 3
#1 inside_the_fiber line 7
#2 {closure}
#3 Fiber->start line 8
#4 start_the_fiber

Warning: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s on line %d

Warning: The main coroutine is suspended at %s:16, awaiting coroutine 1 in %s on line %d

Warning: Coroutine 1 spawned at %s:11 is suspended at %s:4, awaiting coroutine 0 in %s on line %d

Warning: Coroutines and scopes at the deadlock:
global scope: 1 active, 0 zombie
  coroutine 0 (main): suspended at %s:16, awaiting coroutine 1
  coroutine 1 spawned at %s:11: suspended at %s:4, awaiting coroutine 0 in %s on line %d

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 2 coroutines in waiting in %s:16
Stack trace:
#0 {main}
  thrown in %s on line 16
