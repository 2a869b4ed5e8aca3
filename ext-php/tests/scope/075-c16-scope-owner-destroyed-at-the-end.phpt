--TEST--
Rule S8/C3: a global Scope object is destroyed after the coroutines finished (the script waits for them), so nothing is reported
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () { Async\delay(10); echo "task finished before the scope object went\n"; });
echo "script ends\n";
?>
--EXPECT--
script ends
task finished before the scope object went
