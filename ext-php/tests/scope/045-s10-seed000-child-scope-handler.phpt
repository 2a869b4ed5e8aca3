--TEST--
Rule S10 (seed 000, the Service example): setChildScopeExceptionHandler() handles errors of child scopes; the service goes on
--DESCRIPTION--
The seed's $this->service->receive() loop is replaced by three requests.
--FILE--
<?php
use Async\Scope;
use Async\Coroutine;

final class Service
{
    private Scope $scope;

    public function __construct()
    {
        $this->scope = new Scope();
        $this->scope->setChildScopeExceptionHandler(
            static function (Scope $scope, Coroutine $coroutine, \Throwable $exception): void {
                echo "Occurred an exception: {$exception->getMessage()} in Coroutine {$coroutine->getSpawnLocation()}\n";
            });
    }

    public function start(): void
    {
        $this->scope->spawn($this->run(...));
    }

    public function wait(): void
    {
        $this->scope->awaitCompletion(Async\timeout(60000));
    }

    private function run(): void
    {
        foreach (['ok', 'bad', 'ok'] as $i => $request) {
            $scope = Scope::inherit($this->scope); // supervisor pattern
            $scope->spawn($this->handleRequest(...), $i, $request)->onFinally(
                static function () use ($scope) {
                    $scope->disposeSafely();
                }
            );
        }
    }

    private function handleRequest(int $i, string $request): void
    {
        Async\delay(5);
        if ($request === 'bad') {
            throw new RuntimeException("request $i failed");
        }
        echo "request $i served\n";
    }
}

$service = new Service();
$service->start();
$service->wait();
echo "the service is still up\n";
?>
--EXPECTF--
request 0 served
Occurred an exception: request 1 failed in Coroutine %s:%d
request 2 served
the service is still up
