--TEST--
Rule C12: getAwaitingInfo() says what a suspended coroutine waits for, as the core describes it
--FILE--
<?php
$target = Async\spawn(fn() => Async\delay(30));
$waiter = Async\spawn(fn() => Async\await($target));
$yielder = Async\spawn(fn() => Async\suspend());
var_dump($target->getAwaitingInfo());
Async\suspend();
$info = $waiter->getAwaitingInfo();
echo $info['type'], " ", $info['coroutine'] === $target->getId() ? "target" : "other", " ", $info['count'], "\n";
echo $info['description'], "\n";
$info = $target->getAwaitingInfo();
echo $info['type'], " ", $info['remaining_ms'] <= 30 ? "<= 30 ms left" : "?", " ", $info['location'] === __FILE__ . ":2" ? "here" : $info['location'], "\n";
echo $yielder->getAwaitingInfo()['type'] ?? 'none', "\n";
Async\await($waiter);
var_dump($waiter->getAwaitingInfo());
$main = Async\currentCoroutine();
Async\spawn(function () use ($main) {
    $info = $main->getAwaitingInfo();
    echo "main: ", $info['type'], ", ", $info['description'], "\n";
});
?>
--EXPECTF--
array(0) {
}
await target 1
awaiting coroutine 1
delay <= 30 ms left here
suspend
array(0) {
}
main: end, the end of the program
