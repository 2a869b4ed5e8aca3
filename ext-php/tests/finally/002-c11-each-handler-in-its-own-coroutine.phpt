--TEST--
Rule C11: each handler runs in a coroutine of its own, after completion; slow handlers do not delay the others
--FILE--
<?php
$c = Async\spawn(fn() => "result");
$c->onFinally(function ($co) {
    echo "first handler starts\n";
    Async\delay(10);
    echo "first handler ends\n";
});
$c->finally(function ($co) {
    echo "second handler: ", Async\await($co), "\n";
});
$ids = [];
$c->onFinally(function () use (&$ids) { $ids[] = Async\currentCoroutine()->getId(); });
$c->onFinally(function () use (&$ids) { $ids[] = Async\currentCoroutine()->getId(); });
Async\await($c);
Async\delay(20);
var_dump(count(array_unique($ids)));
?>
--EXPECT--
first handler starts
second handler: result
first handler ends
int(2)
