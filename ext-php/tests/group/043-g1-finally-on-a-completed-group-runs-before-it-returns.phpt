--TEST--
Rule G1: finally() on a closed group whose tasks have all finished runs the callback, in a coroutine of its own, before it returns; the callback's exception is finally()'s
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(fn () => 1);
$g->close();
$g->awaitCompletion();
$main = Async\currentCoroutine();
$g->finally(function (Async\TaskGroup $group) use ($g, $main) {
    echo "finally ran with the group: ", var_export($group === $g, true), ", in its own coroutine: ",
        var_export(Async\currentCoroutine() !== $main, true), "\n";
});
echo "finally() returned\n";
try {
    $g->finally(function () { throw new RuntimeException("from the callback"); });
} catch (RuntimeException $e) {
    echo "finally() threw: ", $e->getMessage(), "\n";
}
$open = new Async\TaskGroup();
$open->spawn(fn () => 1);
$open->finally(function () { echo "later, once closed\n"; });
echo "registered on an open group\n";
$open->close();
$open->awaitCompletion();
?>
--EXPECT--
finally ran with the group: true, in its own coroutine: true
finally() returned
finally() threw: from the callback
registered on an open group
later, once closed
