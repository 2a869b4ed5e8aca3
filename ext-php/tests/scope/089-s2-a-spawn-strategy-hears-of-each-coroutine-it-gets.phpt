--TEST--
Rule S2: a SpawnStrategy given to spawn_with() hears of the coroutine and its scope before and after it is queued, before it starts; when beforeCoroutineEnqueue() throws, the coroutine never starts
--FILE--
<?php
final class Logging implements Async\SpawnStrategy
{
    public Async\Scope $scope;
    public bool $refuse = false;
    public function __construct() { $this->scope = new Async\Scope(); }
    public function provideScope(): Async\Scope { return $this->scope; }
    public function beforeCoroutineEnqueue(Async\Coroutine $coroutine, Async\Scope $scope): array
    {
        echo "before: started ", var_export($coroutine->isStarted(), true), ", same scope ", var_export($scope === $this->scope, true), "\n";
        if ($this->refuse) {
            throw new RuntimeException("refused");
        }
        return [];
    }
    public function afterCoroutineEnqueue(Async\Coroutine $coroutine, Async\Scope $scope): void
    {
        echo "after: queued ", var_export($coroutine->isQueued(), true), "\n";
    }
}
$strategy = new Logging();
$c = Async\spawn_with($strategy, function () { echo "executing\n"; return 1; });
Async\await($c);
$strategy->refuse = true;
try {
    Async\spawn_with($strategy, function () { echo "never runs\n"; });
} catch (RuntimeException $e) {
    echo "spawn_with threw: ", $e->getMessage(), "\n";
}
Async\delay(5);
echo "done\n";
?>
--EXPECT--
before: started false, same scope true
after: queued true
executing
before: started false, same scope true
spawn_with threw: refused
done
