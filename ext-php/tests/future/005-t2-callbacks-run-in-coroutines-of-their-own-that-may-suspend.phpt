--TEST--
Rule T2: the callback of a derived future runs in a coroutine of its own after the code that completed the source went on, may suspend, and derivations of one source run in the order they were attached
--FILE--
<?php
$state = new Async\FutureState();
$future = new Async\Future($state);
$main = Async\currentCoroutine();
$a = $future->map(function ($v) use ($main) {
    echo "first: own coroutine: ", var_export(Async\currentCoroutine() !== $main, true), "\n";
    Async\delay(5);
    return "$v after a delay";
});
$b = $future->map(function ($v) { echo "second\n"; return $v; });
$state->complete("value");
echo "complete() returned first\n";
echo $a->await(), " / ", $b->await(), "\n";
?>
--EXPECT--
complete() returned first
first: own coroutine: true
second
value after a delay / value
