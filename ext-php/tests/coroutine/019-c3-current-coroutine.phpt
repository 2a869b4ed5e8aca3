--TEST--
Rule C3: currentCoroutine() (alias current_coroutine) is the main coroutine in the main flow
--FILE--
<?php
$main = Async\currentCoroutine();
var_dump($main === Async\current_coroutine());
var_dump($main->isRunning(), $main->isStarted(), $main->isCompleted());
$c = Async\spawn(function () use ($main) {
    $me = Async\currentCoroutine();
    var_dump($me !== $main, $main->isRunning(), $main->isSuspended());
    return $me;
});
var_dump(Async\await($c) === $c);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
