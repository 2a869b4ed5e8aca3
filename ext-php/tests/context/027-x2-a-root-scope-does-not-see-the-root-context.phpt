--TEST--
Rule X2: the hierarchy of contexts is exactly that of scopes: a new Scope() is a root and does not see rootContext()'s keys; its children see its own
--FILE--
<?php
Async\rootContext()->set('app', 'demo');
$root = new Async\Scope();
$root->context->set('tenant', 't1');
$child = Async\Scope::inherit($root);
var_dump($root->context->find('app'), $root->context->has('app'), $child->context->find('tenant'));
$seen = Async\await($child->spawn(fn() => [
    Async\currentContext()->find('app'),
    Async\currentContext()->find('tenant'),
    Async\coroutineContext()->find('tenant'),
]));
var_dump($seen);
// A child of the global scope still sees the root context.
$inherited = Async\Scope::inherit(Async\Scope::global());
var_dump($inherited->context->find('app'));
?>
--EXPECT--
NULL
bool(false)
string(2) "t1"
array(3) {
  [0]=>
  NULL
  [1]=>
  string(2) "t1"
  [2]=>
  string(2) "t1"
}
string(4) "demo"
