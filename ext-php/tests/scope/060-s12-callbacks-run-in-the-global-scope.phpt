--TEST--
Rule S12/C11: each completion callback runs in a coroutine of its own, in the global scope
--FILE--
<?php
$scope = new Async\Scope();
$ids = [];
for ($i = 0; $i < 2; $i++) {
    $scope->onFinally(function () use (&$ids) {
        $ids[] = Async\currentCoroutine()->getId();
        var_dump(Async\currentCoroutine()->getScope() === Async\Scope::global());
    });
}
$scope->dispose();
Async\suspend();
var_dump(count(array_unique($ids)));
?>
--EXPECT--
bool(true)
bool(true)
int(2)
