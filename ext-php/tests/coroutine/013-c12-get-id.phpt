--TEST--
Rule C12: getId() is unique and grows; the main coroutine has id 0
--FILE--
<?php
$a = Async\spawn(fn() => 1);
$b = Async\spawn(fn() => 2);
var_dump($a->getId() > 0, $b->getId() === $a->getId() + 1);
var_dump(Async\currentCoroutine()->getId());
echo Async\await(Async\spawn(fn() => Async\currentCoroutine()->getId() > $b->getId() ? "greater" : "not greater")), "\n";
?>
--EXPECT--
bool(true)
bool(true)
int(0)
greater
