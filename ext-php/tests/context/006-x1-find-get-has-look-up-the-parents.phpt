--TEST--
Rule X1: find/get/has look in this context then its parents; findLocal/getLocal/hasLocal only in this one
--FILE--
<?php
$root = new Async\Scope();
$child = Async\Scope::inherit($root);
$root->context->set('only-in-root', 'root value');
$child->context->set('only-in-child', 'child value');
$ctx = $child->context;
var_dump($ctx->find('only-in-root'), $ctx->get('only-in-root'), $ctx->has('only-in-root'));
var_dump($ctx->findLocal('only-in-root'), $ctx->getLocal('only-in-root'), $ctx->hasLocal('only-in-root'));
var_dump($ctx->getLocal('only-in-child'), $ctx->hasLocal('only-in-child'));
var_dump($root->context->has('only-in-child'));
var_dump($ctx->get('missing'), $ctx->has('missing'));
?>
--EXPECT--
string(10) "root value"
string(10) "root value"
bool(true)
NULL
NULL
bool(false)
string(11) "child value"
bool(true)
bool(false)
NULL
bool(false)
