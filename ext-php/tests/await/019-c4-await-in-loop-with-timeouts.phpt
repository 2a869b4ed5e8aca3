--TEST--
Rule C5: a retry loop with a timeout per attempt
--FILE--
<?php
$attempt = 0;
$job = fn(int $ms) => Async\spawn(function () use ($ms) { Async\delay($ms); return "done in $ms ms"; });
foreach ([300, 200, 5] as $ms) {
    $attempt++;
    $c = $job($ms);
    try {
        $r = Async\await($c, Async\timeout(50));
        echo "attempt $attempt: $r\n";
        break;
    } catch (Async\AwaitCancelledException) {
        echo "attempt $attempt: timed out\n";
        $c->cancel();
    }
}
?>
--EXPECT--
attempt 1: timed out
attempt 2: timed out
attempt 3: done in 5 ms
