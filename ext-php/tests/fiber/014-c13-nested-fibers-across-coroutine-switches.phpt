--TEST--
Rule C13: fibers nested three deep in each of two coroutines keep their own stacks across coroutine switches at every depth; each suspend returns to its own resumer
--FILE--
<?php
use function Async\{spawn, await, suspend};

function nest(string $name, int $depth): string {
    if ($depth === 0) {
        suspend();                                      // a coroutine switch at the deepest level
        return $name;
    }
    $f = new Fiber(function () use ($name, $depth) {
        $inner = nest($name, $depth - 1);
        $v = Fiber::suspend("$inner/$depth");
        suspend();                                      // and inside each fiber once resumed
        return $v;
    });
    $first = $f->start();
    suspend();
    $f->resume("r$depth");
    return "$first>" . $f->getReturn();
}
$a = spawn(fn() => nest("a", 3));
$b = spawn(fn() => nest("b", 3));
echo await($a), "\n", await($b), "\n";
?>
--EXPECT--
a/1>r1/2>r2/3>r3
b/1>r1/2>r2/3>r3
