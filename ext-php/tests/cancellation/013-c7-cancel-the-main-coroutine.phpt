--TEST--
Rule C7: a coroutine may cancel the main coroutine; the main flow gets the cancellation
--FILE--
<?php
$main = Async\currentCoroutine();
Async\spawn(function () use ($main) { $main->cancel(new Async\CancellationError("main cancelled")); });
try {
    Async\delay(1000);
} catch (Async\CancellationError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
main cancelled
