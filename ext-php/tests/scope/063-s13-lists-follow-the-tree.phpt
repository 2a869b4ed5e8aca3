--TEST--
Rule S13: getCoroutines() lists the scope's own unfinished coroutines in spawn order (zombies included); getChildScopes() the live children
--FILE--
<?php
$scope = new Async\Scope();
$a = $scope->spawn(fn() => Async\delay(60000));
$b = $scope->spawn(fn() => 1);
$child = Async\Scope::inherit($scope);
$c = $child->spawn(fn() => Async\delay(60000));
var_dump($scope->getCoroutines() === [$a, $b], $child->getCoroutines() === [$c]);
Async\suspend();
var_dump($scope->getCoroutines() === [$a]);
@$scope->disposeSafely();
var_dump($scope->getCoroutines() === [$a], $child->getCoroutines() === [$c]);
unset($child);
var_dump(count($scope->getChildScopes()));
$scope->cancel();
Async\suspend();
var_dump($scope->getCoroutines(), $scope->getChildScopes());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(1)
array(0) {
}
array(0) {
}
