--TEST--
Rule S9: a zombie is still listed by getCoroutines() (zombies included) until it finishes
--FILE--
<?php
$scope = new Async\Scope();
$z = $scope->spawn(fn() => Async\delay(10));
Async\suspend();
@$scope->disposeSafely();
var_dump(in_array($z, Async\getCoroutines(), true));
Async\await($z);
var_dump(in_array($z, Async\getCoroutines(), true));
?>
--EXPECT--
bool(true)
bool(false)
