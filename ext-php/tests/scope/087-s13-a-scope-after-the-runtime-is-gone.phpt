--TEST--
Rule S13/S12/C11: a destructor run after the runtime was torn down may still read a scope, ask it to end and register onFinally() on it or on a coroutine: finished, they run the callback at once
--DESCRIPTION--
A destructor spawns a coroutine (C16) that runs in the request's last
drain and leaves a Holder in the root context; the Holder is released
with the runtime's teardown, so its destructor runs when the runtime is
gone.
--FILE--
<?php
final class Holder
{
    public function __construct(public Async\Scope $scope, public Async\Coroutine $co) {}
    public function __destruct()
    {
        $s = $this->scope;
        var_dump($s->isFinished(), $s->isClosed(), $s->isCancelled());
        var_dump($s->getChildScopes(), $s->getCoroutines());
        $s->disposeSafely();
        $s->dispose();
        $s->cancel();
        var_dump($s->asNotSafely() === $s);
        $s->onFinally(function (Async\Scope $scope) use ($s) {
            echo "scope callback ran at once: ", var_export($scope === $s, true), "\n";
        });
        $this->co->onFinally(function (Async\Coroutine $co) {
            echo "coroutine callback ran at once: ", var_export($co === $this->co, true), "\n";
        });
        var_dump($this->co->isCompleted());
        try {
            $s->spawn(fn() => 1);
        } catch (Async\AsyncException $e) {
            echo $e->getMessage(), "\n";
        }
        echo "destructor done\n";
    }
}
final class Starter
{
    public function __destruct()
    {
        Async\spawn(function () {
            $scope = new Async\Scope();
            $scope->spawn(fn() => 1);
            Async\rootContext()->set('holder', new Holder($scope, Async\currentCoroutine()));
        });
    }
}
$starter = new Starter();
echo "end of script\n";
?>
--EXPECT--
end of script
bool(true)
bool(true)
bool(false)
array(0) {
}
array(0) {
}
bool(true)
scope callback ran at once: true
coroutine callback ran at once: true
bool(true)
The scope belongs to a runtime that no longer exists
destructor done
