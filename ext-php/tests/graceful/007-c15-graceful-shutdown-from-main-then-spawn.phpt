--TEST--
Rule C15: after gracefulShutdown() in the main flow, the main flow is cancelled at its next suspension; spawned coroutines still run
--FILE--
<?php
Async\gracefulShutdown();
echo "main runs on until it suspends\n";
$c = Async\spawn(fn() => print("spawned after the shutdown started\n"));
try {
    Async\suspend();
    echo "not reached\n";
} catch (Async\CancellationError $e) {
    echo "main: ", $e->getMessage(), "\n";
}
Async\suspend();
echo "caught it: main goes on\n";
?>
--EXPECT--
main runs on until it suspends
main: Graceful shutdown
spawned after the shutdown started
caught it: main goes on
