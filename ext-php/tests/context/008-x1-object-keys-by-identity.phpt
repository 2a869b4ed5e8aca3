--TEST--
Rule X1: object keys are compared by identity: an equal object is another key, and only the holder reaches the slot
--FILE--
<?php
$ctx = Async\currentContext();
$a = new ArrayObject([1]);
$b = new ArrayObject([1]);
$ctx->set($a, 'for a');
var_dump($ctx->get($a), $ctx->get($b), $ctx->has($b));
$ctx->set($b, 'for b');
var_dump($ctx->get($a), $ctx->get($b));
$ctx->unset($a);
var_dump($ctx->has($a), $ctx->get($b));
?>
--EXPECT--
string(5) "for a"
NULL
bool(false)
string(5) "for a"
string(5) "for b"
bool(false)
string(5) "for b"
