--TEST--
Rule T5: a callback that throws stops the iteration; the running callbacks are cancelled (cancelPending) and iterate() throws the exception once they ended, without failing the scope
--FILE--
<?php
try {
    Async\iterate([1, 2, 3, 4, 5], function (int $v) {
        if ($v === 3) {
            throw new RuntimeException("error processing $v");
        }
        try {
            Async\delay(50);
            echo "processed: $v\n";
        } catch (Async\CancellationError) {
            echo "cancelled: $v\n";
        }
    });
} catch (RuntimeException $e) {
    echo "caught: ", $e->getMessage(), "\n";
}
try {
    Async\iterate([1, 2], function (int $v) {
        if ($v === 1) {
            throw new LogicException("first");
        }
        Async\delay(5);
        echo "kept running: $v\n";
    }, cancelPending: false);
} catch (LogicException $e) {
    echo "caught: ", $e->getMessage(), "\n";
}
echo "the current scope is fine: ", var_export(!Async\Scope::global()->isCancelled(), true), "\n";
?>
--EXPECT--
cancelled: 1
cancelled: 2
caught: error processing 3
caught: first
the current scope is fine: true
