--TEST--
Rule C15: gracefulShutdown() cancels every coroutine (zombies included) with the given CancellationError; new ones may still be spawned
--FILE--
<?php
$scope = new Async\Scope();
$zscope = new Async\Scope();
foreach (['global' => null, 'scope' => $scope, 'zombie' => $zscope] as $name => $s) {
    $f = function () use ($name) {
        try { Async\delay(60000); } catch (Async\CancellationError $e) { echo "$name: ", $e->getMessage(), "\n"; }
    };
    $s ? $s->spawn($f) : Async\spawn($f);
}
Async\suspend();
@$zscope->disposeSafely();
$c = Async\spawn(function () {
    Async\gracefulShutdown(new Async\CancellationError("shutting down"));
    echo "the caller keeps running\n";
    Async\spawn(fn() => print("spawned during the shutdown\n"));
});
try {
    Async\await($c);
} catch (Async\CancellationError $e) {
    echo "main: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
the caller keeps running
main: shutting down
global: shutting down
scope: shutting down
zombie: shutting down
spawned during the shutdown
