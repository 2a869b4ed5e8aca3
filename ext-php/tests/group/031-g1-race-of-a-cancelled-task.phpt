--TEST--
Rule G1/C7: race() completes with a CancellationError when the first task to complete was cancelled
--FILE--
<?php
$g = new Async\TaskGroup();
$slow = $g->spawn(fn() => Async\delay(60000));
$g->spawn(function () { Async\delay(20); return "late"; });
Async\suspend();
$slow->cancel(new Async\CancellationError("first out"));
try {
    Async\await($g->race());
} catch (Async\CancellationError $e) {
    echo "race: ", $e->getMessage(), "\n";
}
echo "any: ", Async\await($g->any()), "\n";
?>
--EXPECT--
race: first out
any: late
