--TEST--
Rule C13: a Fiber started in one coroutine and resumed from another runs in the one that resumed it, as PHP defines; its waits then suspend that coroutine
--FILE--
<?php
use function Async\{spawn, await, delay, currentCoroutine};

$names = [currentCoroutine()->getId() => "main"];
function who(): string { return $GLOBALS['names'][currentCoroutine()->getId()]; }

$f = null;
$a = spawn(function () use (&$f) {
    $f = new Fiber(function () {
        $from = Fiber::suspend("started in " . who());
        delay(5);                   // suspends the coroutine that resumed it
        $from2 = Fiber::suspend("then ran in " . who() . ", resumed by $from");
        return "ended in " . who() . ", resumed by $from2";
    });
    echo $f->start(), "\n";
});
$names[$a->getId()] = "a";
await($a);
$b = spawn(function () use ($f) {
    echo $f->resume("b"), "\n";
});
$names[$b->getId()] = "b";
$c = spawn(function () { echo "c runs while b waits in the fiber\n"; });
$names[$c->getId()] = "c";
await($b);
$f->resume("main");
echo $f->getReturn(), "\n";
?>
--EXPECT--
started in a
c runs while b waits in the fiber
then ran in b, resumed by b
ended in main, resumed by main
