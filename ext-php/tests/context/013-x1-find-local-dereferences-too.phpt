--TEST--
Rule X1: findLocal() dereferences a WeakReference too; getLocal() does not; a dead reference finds null
--FILE--
<?php
$ctx = Async\currentContext();
$o = new stdClass;
$ctx->set('w', WeakReference::create($o));
var_dump($ctx->findLocal('w') === $o, $ctx->getLocal('w') instanceof WeakReference);
unset($o);
var_dump($ctx->findLocal('w'), $ctx->find('w'), $ctx->hasLocal('w'));
?>
--EXPECT--
bool(true)
bool(true)
NULL
NULL
bool(true)
