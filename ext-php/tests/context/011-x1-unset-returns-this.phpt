--TEST--
Rule X1: set() and unset() return the context (chaining); unset() of a missing key is fine
--FILE--
<?php
$ctx = Async\currentContext();
var_dump($ctx->set('a', 1)->set('b', 2) === $ctx);
var_dump($ctx->unset('a')->unset('missing') === $ctx);
var_dump($ctx->has('a'), $ctx->get('b'));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
int(2)
