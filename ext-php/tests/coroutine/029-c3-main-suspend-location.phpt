--TEST--
Rule C3/C12: the main coroutine reports where it is suspended
--FILE--
<?php
$main = Async\currentCoroutine();
$c = Async\spawn(function () use ($main) {
    var_dump($main->isSuspended(), $main->getSuspendFileAndLine()[1], $main->getAwaitingInfo()['type']);
    echo count($main->getTrace()) > 0 ? "main trace visible\n" : "no trace\n";
});
Async\await($c);
?>
--EXPECT--
bool(true)
int(7)
string(5) "await"
main trace visible
