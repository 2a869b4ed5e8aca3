--TEST--
Rule C13: a Fiber whose coroutine waits inside it is running: another coroutine cannot resume, throw into or suspend it, and sees its own Fiber::getCurrent()
--FILE--
<?php
use function Async\{spawn, await, delay};

$f = new Fiber(function () { delay(20); return "done"; });
$a = spawn(function () use ($f) { $f->start(); return $f->getReturn(); });
$b = spawn(function () use ($f) {
    // a ran first and waits inside the fiber; b waits for nothing, so the
    // fiber is still running whatever the timing.
    var_dump($f->isRunning(), $f->isSuspended(), Fiber::getCurrent());
    foreach ([fn() => $f->resume(), fn() => $f->throw(new Exception("x")), fn() => Fiber::suspend()] as $call) {
        try { $call(); } catch (FiberError $e) { echo $e->getMessage(), "\n"; }
    }
    $own = new Fiber(fn() => Fiber::getCurrent() !== $f && Fiber::getCurrent() !== null);
    $own->start();
    var_dump($own->getReturn());
});
await($b);
echo await($a), "\n";
?>
--EXPECT--
bool(true)
bool(false)
NULL
Cannot resume a fiber that is not suspended
Cannot resume a fiber that is not suspended
Cannot suspend outside of a fiber
bool(true)
done
