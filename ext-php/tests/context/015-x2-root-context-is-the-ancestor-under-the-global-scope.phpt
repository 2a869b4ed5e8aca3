--TEST--
Rule X2: the root context (the global scope's) is the ancestor of the contexts of the global scope's descendants; a new Scope() root and its children do not see it
--FILE--
<?php
Async\rootContext()->set('app', 'demo');
$root = new Async\Scope();
$child = Async\Scope::inherit($root);
var_dump($root->context->get('app'), $child->context->get('app'));
$under = Async\Scope::inherit();
$grandchild = Async\Scope::inherit($under);
var_dump($under->context->get('app'), $grandchild->context->get('app'), $grandchild->context->getLocal('app'));
$seen = Async\await($grandchild->spawn(fn() => Async\coroutineContext()->get('app')));
var_dump($seen);
?>
--EXPECT--
NULL
NULL
string(4) "demo"
string(4) "demo"
NULL
string(4) "demo"
