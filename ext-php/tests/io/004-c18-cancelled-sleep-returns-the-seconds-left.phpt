--TEST--
Rule C18: a cancelled sleep() returns the seconds left, as an interrupted sleep does; the next suspension throws the cancellation
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$c = spawn(function () {
    $left = sleep(30);
    echo "sleep returned ", $left > 0 && $left <= 30 ? "the seconds left" : "wrong: $left", "\n";
    try {
        Async\delay(1);
        echo "not reached\n";
    } catch (Async\CancellationError $e) {
        echo "next suspension throws: ", $e->getMessage(), "\n";
        throw $e;
    }
});
spawn(function () use ($c) { $c->cancel(new Async\CancellationError("stop")); });
try {
    await($c);
} catch (Async\CancellationError $e) {
    echo "await: ", $e->getMessage(), "\n";
}
var_dump($c->isCancelled());
?>
--EXPECT--
sleep returned the seconds left
next suspension throws: stop
await: stop
bool(true)
