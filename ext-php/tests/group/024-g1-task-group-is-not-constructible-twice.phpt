--TEST--
Rule G1: TaskGroup is final, not clonable, not serializable; its constructor runs once
--FILE--
<?php
$g = new Async\TaskGroup();
try { $g->__construct(3); } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { clone $g; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { serialize($g); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
var_dump((new ReflectionClass($g))->isFinal(), $g instanceof Countable, $g instanceof IteratorAggregate, $g instanceof Async\ScopeProvider);
?>
--EXPECT--
Cannot call constructor twice
Trying to clone an uncloneable object of class Async\TaskGroup
Serialization of 'Async\TaskGroup' is not allowed
bool(true)
bool(true)
bool(true)
bool(true)
