--TEST--
Rule C12: getAwaitingInfo() describes waits on a scope, on a task group and on several awaitables
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(fn() => Async\delay(30));
$g = new Async\TaskGroup();
$g->spawn(fn() => Async\delay(30));
$a = Async\spawn(fn() => $scope->awaitCompletion(Async\timeout(60000)));
$b = Async\spawn(function () use ($g) { foreach ($g as $x) {} });
$c = Async\spawn(fn() => Async\await_any_or_fail([Async\timeout(60000), Async\timeout(60000)]));
Async\suspend();
foreach ([$a, $b, $c] as $co) {
    $info = $co->getAwaitingInfo();
    $text = $info['description'];
    $at = strpos($text, ' at ');
    echo $info['type'], ": ", $at === false ? $text : substr($text, 0, $at) . " at FILE:LINE", "\n";
}
echo $c->getAwaitingInfo()['count'], "\n";
$c->cancel();
Async\await($a);
Async\await($b);
?>
--EXPECT--
scope: awaiting the scope created at FILE:LINE
task_group: the next result of a task group
await: awaiting the first of 2 awaitables
2
