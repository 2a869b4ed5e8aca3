--TEST--
Rule X1/X2: an exception handler runs on the failing coroutine: it sees that coroutine's private context and its scope's
--FILE--
<?php
$scope = new Async\Scope();
$scope->context->set('request', 'GET /');
$scope->setExceptionHandler(function ($s, $c, Throwable $e) {
    echo "while handling ", $e->getMessage(), ": ",
        Async\currentContext()->get('request'), ", trace id ", Async\coroutineContext()->get('trace'), "\n";
});
$scope->spawn(function () {
    Async\coroutineContext()->set('trace', 'abc');
    throw new Exception("failure");
});
$scope->awaitCompletion(Async\timeout(60000));
?>
--EXPECT--
while handling failure: GET /, trace id abc
