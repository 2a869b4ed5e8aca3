--TEST--
Rule C13 (changed): a Fiber created after currentCoroutine() started the runtime runs, and Fiber::getCurrent() sees it
--FILE--
<?php
$main = Async\currentCoroutine();
$f = new Fiber(function () use ($main) {
    var_dump(Fiber::getCurrent() === $GLOBALS['f']);
    var_dump(Async\currentCoroutine() === $main);
});
$f->start();
var_dump(Fiber::getCurrent());
?>
--EXPECT--
bool(true)
bool(true)
NULL
