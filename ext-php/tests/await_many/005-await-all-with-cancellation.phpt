--TEST--
await_all() throws AwaitCancelledException when its cancellation fires first
--FILE--
<?php
$slow = Async\spawn(function () { Async\delay(300); return "slow"; });
try {
    Async\await_all([Async\spawn(fn() => 1), $slow], Async\timeout(10));
} catch (Async\AwaitCancelledException $e) {
    echo "cancelled\n";
}
$slow->cancel();
?>
--EXPECT--
cancelled
