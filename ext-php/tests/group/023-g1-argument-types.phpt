--TEST--
Rule G1: wrong argument types are TypeErrors
--FILE--
<?php
$g = new Async\TaskGroup();
try { $g->spawn("not callable"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { $g->spawnWithKey([], fn() => 1); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { $g->spawnWithKey('k', 42); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { $g->cancel(new Exception("x")); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
Async\TaskGroup::spawn(): Argument #1 ($task) must be a valid callback, function "not callable" not found or invalid function name
Async\TaskGroup::spawnWithKey(): Argument #1 ($key) must be of type string|int, array given
Async\TaskGroup::spawnWithKey(): Argument #2 ($task) must be a valid callback, no array or string given
Async\TaskGroup::cancel(): Argument #1 ($cancellationError) must be of type ?Async\CancellationError, Exception given
