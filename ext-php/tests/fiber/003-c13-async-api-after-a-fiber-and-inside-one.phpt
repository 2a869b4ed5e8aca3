--TEST--
Rule C13 (changed): once a Fiber was created the async API still starts, inside a running Fiber too
--FILE--
<?php
$f = new Fiber(function () {
    // The runtime starts here, inside a Fiber of the main flow.
    $co = Async\spawn(fn() => "spawned");
    $v = Fiber::suspend(Async\await($co));
    Async\delay(1);
    return $v . " " . Async\currentCoroutine()->getId();
});
var_dump($f->start());
foreach ([fn() => Async\spawn(fn() => 1), fn() => Async\suspend(), fn() => Async\delay(1), fn() => Async\currentCoroutine()] as $call) {
    $call();
    echo "ok\n";
}
$f->resume("resumed");
var_dump($f->getReturn());
?>
--EXPECTF--
string(7) "spawned"
ok
ok
ok
ok
string(%d) "resumed %d"
