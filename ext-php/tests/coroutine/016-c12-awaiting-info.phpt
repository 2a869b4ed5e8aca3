--TEST--
Rule C12: getAwaitingInfo() says what a suspended coroutine waits for
--FILE--
<?php
$target = Async\spawn(fn() => Async\delay(30));
$waiter = Async\spawn(fn() => Async\await($target));
$yielder = Async\spawn(fn() => Async\suspend());
var_dump($target->getAwaitingInfo());
Async\suspend();
$info = $waiter->getAwaitingInfo();
echo $info['type'], " ", $info['coroutine'] === $target->getId() ? "target" : "other", "\n";
$info = $target->getAwaitingInfo();
echo $info['type'], " ", $info['ms'], " ", $info['location'] === __FILE__ . ":2" ? "here" : $info['location'], "\n";
echo $yielder->getAwaitingInfo()['type'] ?? 'none', "\n";
Async\await($waiter);
var_dump($waiter->getAwaitingInfo());
?>
--EXPECT--
array(0) {
}
await target
delay 30 here
suspend
array(0) {
}
