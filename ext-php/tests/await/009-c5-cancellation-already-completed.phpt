--TEST--
Rule C5: a cancellation that already completed makes await() throw at once
--FILE--
<?php
$done = Async\spawn(fn() => null);
Async\await($done);
$task = Async\spawn(fn() => "value");
try {
    Async\await($task, $done);
} catch (Async\AwaitCancelledException $e) {
    echo "cancelled at once\n";
}
echo Async\await($task), "\n";
?>
--EXPECT--
cancelled at once
value
