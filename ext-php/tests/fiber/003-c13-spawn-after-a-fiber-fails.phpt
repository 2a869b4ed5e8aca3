--TEST--
Rule C13: once a Fiber was created, spawn (and the rest of the API) fails
--FILE--
<?php
$f = new Fiber(function () { Fiber::suspend(1); return 2; });
var_dump($f->start());
foreach ([fn() => Async\spawn(fn() => 1), fn() => Async\suspend(), fn() => Async\delay(1), fn() => Async\currentCoroutine()] as $call) {
    try {
        $call();
    } catch (Async\AsyncException $e) {
        echo $e->getMessage(), "\n";
    }
}
$f->resume();
var_dump($f->getReturn());
?>
--EXPECT--
int(1)
Cannot use True Async after a Fiber was created: Fibers and coroutines exclude each other
Cannot use True Async after a Fiber was created: Fibers and coroutines exclude each other
Cannot use True Async after a Fiber was created: Fibers and coroutines exclude each other
Cannot use True Async after a Fiber was created: Fibers and coroutines exclude each other
int(2)
