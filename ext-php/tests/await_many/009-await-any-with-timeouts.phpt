--TEST--
await_any_or_fail() accepts Timeout objects: the first to fire wins
--FILE--
<?php
$work = Async\spawn(function () { Async\delay(500); return "work"; });
var_dump(Async\await_any_or_fail([$work, Async\timeout(10)]));
$work->cancel();
try {
    Async\await_any_or_fail([Async\spawn(fn() => Async\delay(300))], Async\timeout(5));
} catch (Async\AwaitCancelledException $e) {
    echo "cancelled\n";
}
?>
--EXPECT--
NULL
cancelled
