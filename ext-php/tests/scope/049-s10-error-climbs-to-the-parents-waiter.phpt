--TEST--
Rule S10: an error nobody received in a child scope moves to the parent when the child's owner lets go; the parent's awaiter receives it
--FILE--
<?php
$parent = new Async\Scope();
$parent->spawn(function () {
    $child = Async\Scope::inherit();
    $child->spawn(function () { throw new RuntimeException("deep failure"); });
    Async\delay(5);
    echo "child failed: ", var_export($child->isCancelled(), true), "\n";
    // The child's owner lets go without awaiting it.
});
try {
    $parent->awaitCompletion(Async\timeout(60000));
} catch (RuntimeException $e) {
    echo "parent's awaiter: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
child failed: true
parent's awaiter: deep failure
