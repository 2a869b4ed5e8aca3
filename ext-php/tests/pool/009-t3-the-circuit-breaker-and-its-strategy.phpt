--TEST--
Rule T3: while the breaker is INACTIVE acquire() throws ServiceUnavailableException (waiters fail when it is deactivated) unless the strategy says to recover; the strategy hears of successes and failures
--FILE--
<?php
final class Strategy implements Async\CircuitBreakerStrategy
{
    public bool $recover = false;
    public function reportSuccess(mixed $source): void { echo "success\n"; }
    public function reportFailure(mixed $source, Throwable $error): void
    {
        echo "failure: ", $error->getMessage(), "\n";
        $source->deactivate();
    }
    public function shouldRecover(): bool { echo "asked to recover\n"; return $this->recover; }
}
$fail = false;
$pool = new Async\Pool(
    factory: function () use (&$fail) { if ($fail) throw new RuntimeException("service down"); return "r"; },
    beforeRelease: fn ($r) => $r !== "broken",
    max: 1,
);
var_dump($pool instanceof Async\CircuitBreaker, $pool->getState());
$strategy = new Strategy();
$pool->setCircuitBreakerStrategy($strategy);
$r = $pool->acquire();
$waiter = Async\spawn(function () use ($pool) {
    try {
        $pool->acquire();
    } catch (Async\ServiceUnavailableException $e) {
        echo "waiter: ", $e->getMessage(), "\n";
    }
});
Async\delay(5);
$pool->deactivate();
Async\await($waiter);
var_dump($pool->getState());
try {
    $pool->acquire();
} catch (Async\ServiceUnavailableException $e) {
    echo get_class($e), " extends ", get_parent_class($e), "\n";
}
$strategy->recover = true;
$pool->release($r);
$got = $pool->acquire();
echo "recovered: ", $got, " ", $pool->getState()->name, "\n";
$pool->activate();
$pool->release("r");
$pool->recover();
echo $pool->getState()->name, "\n";
$pool->activate();
$x = $pool->acquire();
$pool->release($x);
?>
--EXPECT--
bool(true)
enum(Async\CircuitBreakerState::ACTIVE)
waiter: Service is unavailable (circuit breaker is open)
enum(Async\CircuitBreakerState::INACTIVE)
asked to recover
Async\ServiceUnavailableException extends Async\AsyncException
success
asked to recover
recovered: r RECOVERING
success
RECOVERING
success
