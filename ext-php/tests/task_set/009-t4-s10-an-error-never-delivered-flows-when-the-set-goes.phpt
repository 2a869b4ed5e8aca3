--TEST--
Rules T4 and S10: an error the TaskSet never delivered reaches the exception handler of the scope the set was made in when the set goes; delivered errors do not
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function (Async\Scope $s, Async\Coroutine $c, Throwable $e) {
    echo "handler: ", $e->getMessage(), "\n";
});
$scope->spawn(function () {
    $set = new Async\TaskSet();
    $set->spawn(function () { throw new RuntimeException("delivered"); });
    $set->spawn(function () { Async\delay(5); throw new RuntimeException("never delivered"); });
    try {
        $set->joinNext()->await();
    } catch (RuntimeException $e) {
        echo "joinNext: ", $e->getMessage(), "\n";
    }
    Async\delay(20);
    echo "dropping the set\n";
});
Async\delay(50);
?>
--EXPECT--
joinNext: delivered
dropping the set
handler: never delivered
