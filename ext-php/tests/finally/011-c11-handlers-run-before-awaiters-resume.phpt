--TEST--
Rule C11: onFinally() is a defer: every handler has finished, even one that suspends, before an awaiter of the coroutine resumes; a handler may await its own coroutine
--FILE--
<?php
$c = Async\spawn(function () {
    echo "coroutine ends\n";
    return "result";
});
$c->onFinally(function (Async\Coroutine $co) {
    echo "slow handler starts, completed: ", var_export($co->isCompleted(), true), "\n";
    Async\delay(20);
    echo "slow handler ends\n";
});
$c->onFinally(function (Async\Coroutine $co) {
    $r = Async\await($co);
    echo "second handler awaited its coroutine: $r\n";
});
Async\spawn(function () use ($c) {
    $r = Async\await($c);
    echo "other awaiter got: $r\n";
});
$r = Async\await($c);
echo "main got: $r\n";
Async\suspend();
?>
--EXPECT--
coroutine ends
slow handler starts, completed: true
second handler awaited its coroutine: result
slow handler ends
main got: result
other awaiter got: result
