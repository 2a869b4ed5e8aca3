--TEST--
Rule C13 (changed): once a Fiber was created, Scope, TaskGroup and the context functions start the runtime as before
--FILE--
<?php
$f = new Fiber(fn() => 1);
foreach ([fn() => new Async\Scope(), fn() => new Async\TaskGroup(), fn() => Async\currentContext(), fn() => Async\Scope::global()] as $make) {
    echo get_class($make()), "\n";
}
$f->start();
var_dump($f->isTerminated());
?>
--EXPECT--
Async\Scope
Async\TaskGroup
Async\Context
Async\Scope
bool(true)
