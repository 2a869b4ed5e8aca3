--TEST--
Rule S9: at the end of the program zombies get async.zombie_coroutine_timeout seconds, then are cancelled
--INI--
async.zombie_coroutine_timeout=0.05
--FILE--
<?php
register_shutdown_function(fn() => print("shutdown function\n"));
$scope = new Async\Scope();
$scope->spawn(function () {
    try {
        Async\delay(60000);
        echo "never\n";
    } catch (Async\CancellationError $e) {
        echo "zombie: ", $e->getMessage(), "\n";
    }
});
$scope->spawn(function () { Async\delay(10); echo "quick zombie finishes in time\n"; });
Async\suspend();
@$scope->disposeSafely();
echo "script ends\n";
?>
--EXPECTF--
script ends
quick zombie finishes in time
zombie: Zombie coroutine cancelled: the program ended %d ms ago
shutdown function
