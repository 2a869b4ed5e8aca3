--TEST--
Rule G1: a TaskGroup cannot be iterated by reference
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(fn() => 1);
try {
    foreach ($g as &$v) {}
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
An iterator cannot be used with foreach by reference
