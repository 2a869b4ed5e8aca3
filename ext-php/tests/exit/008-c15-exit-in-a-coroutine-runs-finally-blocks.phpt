--TEST--
Rule C15: exit() in a coroutine starts graceful shutdown; the other coroutines run their finally blocks
--FILE--
<?php
use function Async\{spawn, delay, suspend};

spawn(function () {
    try {
        delay(60000);
    } catch (Async\CancellationError $e) {
        echo "sleeper: ", $e->getMessage(), "\n";
    } finally {
        echo "sleeper: finally\n";
    }
});
spawn(function () {
    try {
        suspend();
        suspend();
    } finally {
        echo "yielder: finally\n";
    }
});
spawn(function () {
    suspend();
    echo "exiting\n";
    exit(3);
});
try {
    delay(60000);
} finally {
    echo "main: finally\n";
}
echo "main never continues\n";
?>
--EXPECT--
exiting
yielder: finally
main: finally
sleeper: Graceful shutdown: exit() was called
sleeper: finally
