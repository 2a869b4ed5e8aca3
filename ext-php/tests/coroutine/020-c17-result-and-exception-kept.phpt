--TEST--
Rule C17: a completed coroutine keeps its result or exception
--FILE--
<?php
$ok = Async\spawn(fn() => ['answer' => 42]);
$bad = Async\spawn(function () { throw new LogicException("kept"); });
var_dump($ok->getResult(), $ok->getException());
try { Async\await($bad); } catch (LogicException $e) {}
Async\await($ok);
var_dump($ok->getResult(), $ok->getException());
var_dump($bad->getResult(), $bad->getException() === $e);
?>
--EXPECT--
NULL
NULL
array(1) {
  ["answer"]=>
  int(42)
}
NULL
NULL
bool(true)
