--TEST--
Rule X2: the root context (the global scope's) is the ancestor of every scope's context, roots included
--FILE--
<?php
Async\rootContext()->set('app', 'demo');
$root = new Async\Scope();
$child = Async\Scope::inherit($root);
var_dump($root->context->get('app'), $child->context->get('app'));
var_dump($child->context->getLocal('app'));
$seen = Async\await($child->spawn(fn() => Async\coroutineContext()->get('app')));
var_dump($seen);
?>
--EXPECT--
string(4) "demo"
string(4) "demo"
NULL
string(4) "demo"
