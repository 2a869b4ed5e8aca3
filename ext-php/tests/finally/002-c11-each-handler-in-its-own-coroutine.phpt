--TEST--
Rule C11: each handler runs in a coroutine of its own, after completion; slow handlers do not delay the others
--FILE--
<?php
$c = Async\spawn(fn() => "result");
$firstEnded = false;
$c->onFinally(function ($co) use (&$firstEnded) {
    echo "first handler starts\n";
    Async\delay(10);
    echo "first handler ends\n";
    $firstEnded = true;
});
$c->finally(function ($co) {
    echo "second handler: ", Async\await($co), "\n";
});
$ids = [];
$c->onFinally(function () use (&$ids) { $ids[] = Async\currentCoroutine()->getId(); });
$c->onFinally(function () use (&$ids) { $ids[] = Async\currentCoroutine()->getId(); });
Async\await($c);
// Not a fixed delay: on a loaded machine the first handler may start its
// 10 ms sleep more than 10 ms after this coroutine would start one.
while (!$firstEnded || count($ids) < 2) Async\delay(1);
var_dump(count(array_unique($ids)));
?>
--EXPECT--
first handler starts
second handler: result
first handler ends
int(2)
