--TEST--
Rule C12/S9: getCoroutines() lists zombies and queued completion callbacks too
--FILE--
<?php
$scope = new Async\Scope();
$z = $scope->spawn(fn() => Async\delay(300));
Async\suspend();
@$scope->disposeSafely();
$done = Async\spawn(fn() => 1);
Async\await($done);
$done->onFinally(fn() => null);
$list = Async\getCoroutines();
var_dump(count($list), in_array($z, $list, true));
?>
--EXPECT--
int(3)
bool(true)
