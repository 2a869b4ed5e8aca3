--TEST--
Rule C13: a Fiber's status methods, throw(), getReturn(), its errors and exceptions behave inside a coroutine (which waits inside it) exactly as in plain PHP
--FILE--
<?php
function status(Fiber $f): string {
    return implode(",", [(int) $f->isStarted(), (int) $f->isSuspended(), (int) $f->isRunning(), (int) $f->isTerminated()]);
}
function attempt(callable $c): string {
    try { return var_export($c(), true); } catch (Throwable $e) { return get_class($e) . ": " . $e->getMessage(); }
}
function scenario(callable $wait): array {
    $out = [];
    $f = new Fiber(function (string $a) use (&$out, &$f, $wait) {
        $out[] = "inside: " . status($f) . " current " . (int) (Fiber::getCurrent() === $f);
        $wait();
        try {
            $x = Fiber::suspend("s1:$a");
        } catch (LogicException $e) {
            $out[] = "caught thrown-in " . $e->getMessage();
            $x = Fiber::suspend("s2");
        }
        $wait();
        $out[] = "got $x";
        $inner = new Fiber(function () use ($wait) { $wait(); return Fiber::suspend("inner") . "+"; });
        $out[] = "inner start " . $inner->start();
        $inner->resume("r");
        $out[] = "inner return " . $inner->getReturn();
        return "ret:$x";
    });
    $out[] = "new: " . status($f) . " " . attempt(fn() => $f->getReturn());
    $out[] = "resume before start: " . attempt(fn() => $f->resume());
    $out[] = "start: " . $f->start("A") . " " . status($f);
    $out[] = "start again: " . attempt(fn() => $f->start("B"));
    $out[] = "getReturn while suspended: " . attempt(fn() => $f->getReturn());
    $out[] = "throw: " . $f->throw(new LogicException("L"));
    $out[] = "resume: " . var_export($f->resume("X"), true) . " " . status($f);
    $out[] = "return: " . $f->getReturn();
    $out[] = "resume after end: " . attempt(fn() => $f->resume());
    $g = new Fiber(function () use ($wait) { $wait(); Fiber::suspend(); throw new RuntimeException("from the fiber"); });
    $g->start();
    $out[] = "exception out of resume: " . attempt(fn() => $g->resume());
    $out[] = "after: " . status($g) . " " . attempt(fn() => $g->getReturn());
    $h = new Fiber(function () { Fiber::suspend(); });
    $h->start();
    $out[] = "throw uncaught: " . attempt(fn() => $h->throw(new DomainException("D"))) . " " . status($h);
    $out[] = "suspend outside: " . attempt(fn() => Fiber::suspend());
    $out[] = "current outside: " . var_export(Fiber::getCurrent(), true);
    return $out;
}
$plain = scenario(fn() => null);
echo implode("\n", $plain), "\n";
$co = Async\spawn(function () {
    Async\spawn(function () { for ($i = 0; $i < 20; $i++) Async\suspend(); });
    return scenario(fn() => Async\suspend());
});
$async = Async\await($co);
echo $async === $plain ? "identical inside a coroutine\n" : implode("\n", $async) . "\n";
?>
--EXPECT--
new: 0,0,0,0 FiberError: Cannot get fiber return value: The fiber has not been started
resume before start: FiberError: Cannot resume a fiber that is not suspended
inside: 1,0,1,0 current 1
start: s1:A 1,1,0,0
start again: FiberError: Cannot start a fiber that has already been started
getReturn while suspended: FiberError: Cannot get fiber return value: The fiber has not returned
caught thrown-in L
throw: s2
got X
inner start inner
inner return r+
resume: NULL 1,0,0,1
return: ret:X
resume after end: FiberError: Cannot resume a fiber that is not suspended
exception out of resume: RuntimeException: from the fiber
after: 1,0,0,1 FiberError: Cannot get fiber return value: The fiber threw an exception
throw uncaught: DomainException: D 1,0,0,1
suspend outside: FiberError: Cannot suspend outside of a fiber
current outside: NULL
identical inside a coroutine
