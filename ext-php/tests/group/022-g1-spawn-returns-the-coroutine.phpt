--TEST--
Rule G1: spawn() and spawnWithKey() return the task's Coroutine, which can be awaited on its own; arguments are passed on
--FILE--
<?php
$g = new Async\TaskGroup();
$c = $g->spawn(fn(int $a, int $b) => $a + $b, 2, 3);
$d = $g->spawnWithKey('named', fn(string $who = 'nobody') => "hello $who", who: 'world');
var_dump($c instanceof Async\Coroutine, Async\await($c), Async\await($d));
var_dump($c->getScope() === null);
?>
--EXPECT--
bool(true)
int(5)
string(11) "hello world"
bool(true)
