--TEST--
Rule S9/S15: a zombie that ignores its cancellation at the end of the program is reported as stuck, then forced
--INI--
async.zombie_coroutine_timeout=0.02
--FILE--
<?php
$scope = new Async\Scope();
$scope->spawn(function () {
    try {
        Async\delay(60000);
    } catch (Async\CancellationError) {
        echo "zombie ignores its cancellation\n";
        try {
            Async\delay(60000);
        } catch (Async\CancellationError) {
            echo "forced\n";
        }
    }
});
Async\suspend();
@$scope->disposeSafely();
echo "script ends\n";
?>
--EXPECTF--
script ends
zombie ignores its cancellation

Warning: Coroutine %d spawned at %s:3 (a zombie) is stuck while being cancelled: suspended at %s:9, delay, %s left in %s on line %d
forced
