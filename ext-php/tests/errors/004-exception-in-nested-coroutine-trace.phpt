--TEST--
The trace of an exception thrown in a coroutine starts at the coroutine's function
--FILE--
<?php
function work(int $n) { if ($n === 0) throw new LogicException("bottom"); work($n - 1); }
try {
    Async\await(Async\spawn('work', 2));
} catch (LogicException $e) {
    echo $e->getTraceAsString(), "\n";
}
?>
--EXPECTF--
#0 %s(2): work(0)
#1 %s(2): work(1)
#2 [internal function]: work(2)
#3 {main}
