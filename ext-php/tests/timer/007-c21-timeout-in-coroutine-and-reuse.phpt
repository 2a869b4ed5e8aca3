--TEST--
Rule C21: one Timeout object bounds several awaits; once fired it cancels at once
--FILE--
<?php
$deadline = Async\timeout(30);
$results = [];
foreach ([5, 10, 100, 5] as $ms) {
    try {
        $results[] = Async\await(Async\spawn(function () use ($ms) { Async\delay($ms); return $ms; }), $deadline);
    } catch (Async\AwaitCancelledException) {
        $results[] = "cancelled";
    }
}
echo implode(" ", $results), "\n";
foreach (Async\getCoroutines() as $c) $c->cancel();
?>
--EXPECT--
5 10 cancelled cancelled
