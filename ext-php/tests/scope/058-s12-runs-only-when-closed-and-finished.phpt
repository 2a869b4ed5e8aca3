--TEST--
Rule S12: onFinally() runs once the scope is closed and every coroutine, zombies included, has finished; finally() is its alias
--FILE--
<?php
$scope = new Async\Scope();
$scope->onFinally(function () { echo "onFinally\n"; });
$scope->finally(function () { echo "finally alias\n"; });
$scope->spawn(function () { Async\delay(10); echo "task\n"; });
$scope->awaitCompletion(Async\timeout(60000));
echo "finished, not closed: nothing yet\n";
Async\suspend();
@$scope->disposeSafely();
Async\suspend();
echo "end of script\n";
?>
--EXPECT--
task
finished, not closed: nothing yet
onFinally
finally alias
end of script
