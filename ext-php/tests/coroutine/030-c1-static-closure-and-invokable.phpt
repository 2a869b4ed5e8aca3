--TEST--
Rule C1: static closures and invokable objects run as coroutines
--FILE--
<?php
class Job { public function __invoke(int $x): int { Async\suspend(); return $x * 2; } }
echo Async\await(Async\spawn(new Job, 21)), "\n";
echo Async\await(Async\spawn(static fn() => "static")), "\n";
?>
--EXPECT--
42
static
