--TEST--
Rule T4: when several results are ready at once, the task spawned first is delivered first; otherwise the next to complete
--FILE--
<?php
$set = new Async\TaskSet();
$set->spawn(function () { Async\delay(20); return "spawned first, completed last"; });
$set->spawn(function () { Async\delay(5); return "spawned second, completed first"; });
Async\delay(40);
echo $set->joinNext()->await(), "\n";
echo $set->joinNext()->await(), "\n";
?>
--EXPECT--
spawned first, completed last
spawned second, completed first
