--TEST--
Rule G1: a task's error is a result of the group: once read, it never reaches the scopes above (no handler, no shutdown)
--FILE--
<?php
$outer = new Async\Scope();
$outer->setExceptionHandler(function () { echo "must not be called\n"; });
$outer->spawn(function () {
    $g = new Async\TaskGroup();
    $g->spawn(function () { throw new RuntimeException("task failure"); });
    foreach ($g as [$r, $e]) echo "error kept by the group: ", $e->getMessage(), "\n";
});
$outer->awaitCompletion(Async\timeout(60000));
$g = new Async\TaskGroup();
$g->spawn(function () { throw new RuntimeException("read failure"); });
Async\suspend();
echo "the group keeps ", count($g->getErrors()), " error\n";
unset($g);
echo "script ends normally\n";
?>
--EXPECT--
error kept by the group: task failure
the group keeps 1 error
script ends normally
