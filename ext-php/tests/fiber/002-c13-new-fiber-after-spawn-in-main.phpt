--TEST--
Rule C13 (changed): new Fiber in the main flow after the runtime started works, and coroutines run while it waits
--FILE--
<?php
Async\spawn(function () { echo "coroutine runs\n"; });
$f = new Fiber(function () {
    echo "fiber starts\n";
    Async\delay(10);
    echo "fiber after its delay\n";
    return Fiber::suspend(1) + 1;
});
var_dump($f->start());
$f->resume(41);
var_dump($f->getReturn(), $f->isTerminated());
?>
--EXPECT--
fiber starts
coroutine runs
fiber after its delay
int(1)
int(42)
bool(true)
