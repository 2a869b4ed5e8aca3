--TEST--
Rule S9/C4: a zombie can be awaited like any coroutine; its result comes back
--FILE--
<?php
$scope = new Async\Scope();
$z = $scope->spawn(function () { Async\delay(5); return "zombie result"; });
Async\suspend();
@$scope->disposeSafely();
echo Async\await($z), "\n";
?>
--EXPECT--
zombie result
