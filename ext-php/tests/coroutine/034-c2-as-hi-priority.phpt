--TEST--
Rule C2: Coroutine::asHiPriority() returns the coroutine; queued, it runs ahead of the queue, and again whenever it is woken; a suspend() still lets the others run
--FILE--
<?php
$log = [];
$a = Async\spawn(function () use (&$log) { $log[] = "a"; });
$b = Async\spawn(function () use (&$log) { $log[] = "b"; });
$hi = Async\spawn(function () use (&$log) {
    $log[] = "hi starts";
    Async\suspend();
    $log[] = "hi after suspend";
});
var_dump($hi->asHiPriority() === $hi);
Async\suspend();
echo implode(", ", $log), "\n";
Async\await($hi);

// Woken together with others, it runs first.
$log = [];
$gate = Async\spawn(fn() => Async\delay(5));
$waiters = [];
foreach (['w1', 'w2', 'w3', 'hi'] as $name) {
    $waiters[$name] = Async\spawn(function () use ($gate, &$log, $name) { Async\await($gate); $log[] = $name; });
}
Async\suspend();
$waiters['hi']->asHiPriority();
Async\await_all($waiters);
echo implode(", ", $log), "\n";
?>
--EXPECT--
bool(true)
hi starts, a, b
hi, w1, w2, w3
