--TEST--
Rule T2: a Future filled by one coroutine is awaited by many, each getting the same value; an await with a cancellation token ends with AwaitCancelledException and leaves the future pending
--FILE--
<?php
$state = new Async\FutureState();
$future = new Async\Future($state);
$readers = [];
foreach (['A', 'B', 'C'] as $name) {
    $readers[] = Async\spawn(function () use ($future, $name) {
        echo "$name: " . $future->await() . "\n";
    });
}
try {
    $future->await(Async\timeout(10));
} catch (Async\AwaitCancelledException $e) {
    echo "main gave up: ", get_class($e), "\n";
}
var_dump($future->isCompleted(), count($future->getAwaitingInfo()));
$state->complete("shared");
Async\await_all($readers);
echo "main: ", Async\await($future, Async\timeout(1000)), "\n";
?>
--EXPECT--
main gave up: Async\AwaitCancelledException
bool(false)
int(3)
A: shared
B: shared
C: shared
main: shared
