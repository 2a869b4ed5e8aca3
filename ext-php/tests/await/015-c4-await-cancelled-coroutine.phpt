--TEST--
Rule C7: await() on a coroutine cancelled before it started throws its CancellationError
--FILE--
<?php
$c = Async\spawn(function () { echo "never runs\n"; });
$err = new Async\CancellationError("stop it");
$c->cancel($err);
var_dump($c->isCancelled(), $c->isStarted());
try {
    Async\await($c);
} catch (Async\CancellationError $e) {
    var_dump($e === $err, $e->getMessage());
}
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
string(7) "stop it"
