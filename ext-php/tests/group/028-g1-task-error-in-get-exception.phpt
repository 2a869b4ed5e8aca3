--TEST--
Rule G1/C17: a failed task's Coroutine keeps its exception; the iteration gives the same object
--FILE--
<?php
$g = new Async\TaskGroup();
$c = $g->spawn(function () { throw new DomainException("kept"); });
foreach ($g as [$r, $e]) {
    var_dump($r, $e === $c->getException());
}
?>
--EXPECT--
NULL
bool(true)
