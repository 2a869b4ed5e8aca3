--TEST--
Rules T2 and S10: a future's failure that nobody awaited, derived from or ignored is reported when its last reference goes, as a coroutine failing in the scope where the future was created: that scope's exception handler hears of it
--FILE--
<?php
$scope = new Async\Scope();
$scope->setExceptionHandler(function (Async\Scope $s, Async\Coroutine $c, Throwable $e) {
    echo "handler: ", get_class($e), ": ", $e->getMessage(), "\n";
});
$scope->spawn(function () {
    $state = new Async\FutureState();
    $future = new Async\Future($state);
    $state->error(new LogicException("nobody awaited me"));
    echo "dropping the future\n";
});
$scope->spawn(function () {
    $state = new Async\FutureState();
    $state->ignore();
    $state->error(new LogicException("ignored before it failed"));
    Async\Future::failed(new LogicException("ignored after"))->ignore();
    $awaited = Async\Future::failed(new LogicException("awaited"));
    try { $awaited->await(); } catch (LogicException) {}
    $derived = Async\Future::failed(new LogicException("derived from"))->catch(fn () => null);
    $cancelled = new Async\Future(new Async\FutureState());
    $cancelled->cancel();
});
$scope->awaitCompletion(Async\timeout(10000));
echo "done\n";
?>
--EXPECT--
dropping the future
handler: LogicException: nobody awaited me
done
