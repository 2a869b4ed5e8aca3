--TEST--
Buffers are flushed when a coroutine ends with an exception or is cancelled
--FILE--
<?php
$failing = Async\spawn(function () {
    ob_start(fn($b) => "failing: " . $b);
    echo "text before the exception\n";
    throw new RuntimeException("failed");
});
try {
    Async\await($failing);
} catch (RuntimeException $e) {
    echo "main caught: ", $e->getMessage(), ", level ", ob_get_level(), "\n";
}
$cancelled = Async\spawn(function () {
    ob_start(fn($b) => "cancelled: " . $b);
    echo "text before the cancellation\n";
    Async\delay(5000);
});
Async\delay(5);
$cancelled->cancel();
try {
    Async\await($cancelled);
} catch (Async\CancellationError $e) {
    echo "main caught: ", get_class($e), ", level ", ob_get_level(), "\n";
}
?>
--EXPECT--
failing: text before the exception
main caught: failed, level 0
cancelled: text before the cancellation
main caught: Async\CancellationError, level 0
