--TEST--
Rule C21: one Timeout object bounds several awaits; once fired it cancels at once
--DESCRIPTION--
The margins (5 and 10 ms against 500 ms; 60 s against 500 ms) keep the
outcome independent of the machine's speed.
--FILE--
<?php
$deadline = Async\timeout(500);
$results = [];
foreach ([5, 10, 60000, 5] as $ms) {
    try {
        $results[] = Async\await(Async\spawn(function () use ($ms) { Async\delay($ms); return $ms; }), $deadline);
    } catch (Async\AwaitCancelledException) {
        $results[] = "cancelled";
    }
}
echo implode(" ", $results), "\n";
foreach (Async\getCoroutines() as $c) if ($c !== Async\currentCoroutine()) $c->cancel();
?>
--EXPECT--
5 10 cancelled cancelled
