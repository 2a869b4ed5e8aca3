--TEST--
Rule T4: a join made while no result is ready waits for the next one, a task spawned after the call included; a join Future cancelled before it was answered takes nothing from the set
--FILE--
<?php
$set = new Async\TaskSet();
$set->spawn(function () { Async\delay(10); return "first"; });
$next = $set->joinNext();
$cancelled = $set->joinNext();
$cancelled->cancel();
$third = $set->joinNext();
$set->spawn(function () { Async\delay(20); return "second"; });
echo $next->await(), " ", $third->await(), "\n";
var_dump($cancelled->isCancelled(), count($set));
?>
--EXPECT--
first second
bool(true)
int(0)
