--TEST--
Rule C1: closures keep $this, static variables and use() by reference
--FILE--
<?php
class Counter {
    private int $n = 0;
    public function start(): Async\Coroutine {
        return Async\spawn(function () { return ++$this->n; });
    }
    public static function hello(string $who): string { return "hello $who"; }
}
$c = new Counter;
echo Async\await($c->start()), Async\await($c->start()), "\n";
echo Async\await(Async\spawn([Counter::class, 'hello'], 'static')), "\n";
echo Async\await(Async\spawn('Counter::hello', 'string')), "\n";
$shared = 0;
$inc = function () use (&$shared) { $shared++; Async\suspend(); $shared++; };
Async\await(Async\spawn($inc));
echo $shared, "\n";
?>
--EXPECT--
12
hello static
hello string
2
