--TEST--
Rule C7: a suspended coroutine is resumed with the CancellationError thrown at suspend()
--FILE--
<?php
$c = Async\spawn(function () {
    try {
        Async\suspend();
    } catch (Async\CancellationError $e) {
        echo "caught: ", get_class($e), " at line ", $e->getLine(), "\n";
        echo "message: ", preg_replace('/ at .*/', ' at FILE:LINE', $e->getMessage()), "\n";
    }
    echo "goes on\n";
    return "result";
});
Async\suspend();
$c->cancel();
try {
    Async\await($c);
} catch (Async\CancellationError $e) {
    echo "await throws the cancellation\n";
}
var_dump($c->isCancelled());
?>
--EXPECT--
caught: Async\CancellationError at line 13
message: cancelled at FILE:LINE
goes on
await throws the cancellation
bool(true)
