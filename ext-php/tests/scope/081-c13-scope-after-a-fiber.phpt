--TEST--
Rule C13: once a Fiber was created, Scope, TaskGroup and the context functions refuse to start the runtime
--FILE--
<?php
$f = new Fiber(fn() => 1);
foreach ([fn() => new Async\Scope(), fn() => new Async\TaskGroup(), fn() => Async\currentContext(), fn() => Async\Scope::global()] as $make) {
    try {
        $make();
    } catch (Async\AsyncException $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
Cannot use True Async after a Fiber was created: Fibers and coroutines exclude each other
Cannot use True Async after a Fiber was created: Fibers and coroutines exclude each other
Cannot use True Async after a Fiber was created: Fibers and coroutines exclude each other
Cannot use True Async after a Fiber was created: Fibers and coroutines exclude each other
