--TEST--
Rule T3: the factory's exception is what acquire() throws, and the strategy hears of it as a failure; the place it held is free again
--FILE--
<?php
final class Log implements Async\CircuitBreakerStrategy
{
    public function reportSuccess(mixed $source): void {}
    public function reportFailure(mixed $source, Throwable $error): void { echo "reported: ", $error->getMessage(), "\n"; }
    public function shouldRecover(): bool { return false; }
}
$attempt = 0;
$pool = new Async\Pool(function () use (&$attempt) {
    if (++$attempt === 1) {
        throw new RuntimeException("first connect fails");
    }
    return "second";
}, max: 1);
$pool->setCircuitBreakerStrategy(new Log());
try {
    $pool->acquire();
} catch (RuntimeException $e) {
    echo "acquire threw: ", $e->getMessage(), "\n";
}
echo count($pool), " ", $pool->acquire(), "\n";
?>
--EXPECT--
reported: first connect fails
acquire threw: first connect fails
0 second
