--TEST--
Rule C15: gracefulShutdown() accepts only a CancellationError
--FILE--
<?php
try {
    Async\gracefulShutdown(new Exception("x"));
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Async\gracefulShutdown(): Argument #1 ($cancellationError) must be of type ?Async\CancellationError, Exception given
