--TEST--
Rule X2: after a coroutine completed, its context is empty and has no parent
--FILE--
<?php
$c = Async\spawn(function () {
    Async\coroutineContext()->set('k', 1);
    return Async\coroutineContext();
});
$ctx = Async\await($c);
var_dump($ctx->has('k'));
Async\rootContext()->set('root', 1);
var_dump($ctx->has('root'));
?>
--EXPECT--
bool(false)
bool(false)
