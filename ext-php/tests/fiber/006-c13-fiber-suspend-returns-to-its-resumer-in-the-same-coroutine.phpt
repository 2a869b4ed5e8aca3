--TEST--
Rule C13: Fiber::suspend() returns to whoever resumed the fiber, in the same coroutine, while two coroutines interleave their fibers
--FILE--
<?php
use function Async\{spawn, await, suspend};

function worker(string $name): array {
    $log = [];
    $f = new Fiber(function (int $n) use ($name) {
        for ($i = 0; $i < 3; $i++) {
            $n = Fiber::suspend("$name:" . ($n + $i));
        }
        return "$name done";
    });
    $log[] = $f->start(10);
    suspend();                       // the other coroutine runs its fiber
    while (!$f->isTerminated()) {
        $v = $f->resume(100);
        if ($v !== null) $log[] = $v;
        suspend();
    }
    $log[] = $f->getReturn();
    $log[] = Async\currentCoroutine()->getId() === $GLOBALS['ids'][$name] ? "same coroutine" : "other coroutine";
    return $log;
}
$ids = [];
$a = spawn(fn() => worker("a"));
$b = spawn(fn() => worker("b"));
$ids = ["a" => $a->getId(), "b" => $b->getId()];
echo implode(" ", await($a)), "\n";
echo implode(" ", await($b)), "\n";
?>
--EXPECT--
a:10 a:101 a:102 a done same coroutine
b:10 b:101 b:102 b done same coroutine
