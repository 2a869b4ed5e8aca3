--TEST--
Rule X2: in the main flow coroutineContext() is the main coroutine's own context
--FILE--
<?php
$ctx = Async\coroutineContext();
$ctx->set('main only', true);
var_dump(Async\currentContext()->has('main only'));
var_dump(Async\await(Async\spawn(fn() => Async\coroutineContext()->has('main only'))));
var_dump(Async\coroutineContext()->get('main only'));
?>
--EXPECT--
bool(false)
bool(false)
bool(true)
