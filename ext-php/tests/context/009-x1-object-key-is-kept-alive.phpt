--TEST--
Rule X1: the context keeps a reference to an object key (its identity cannot be reused while stored); unset() releases it
--FILE--
<?php
class Key { public function __destruct() { echo "key destroyed\n"; } }
$ctx = Async\currentContext();
$key = new Key;
$weak = WeakReference::create($key);
$ctx->set($key, 'value');
unset($key);
echo "key variable gone\n";
var_dump($weak->get() !== null);
$ctx->unset($weak->get());
echo "after unset\n";
?>
--EXPECT--
key variable gone
bool(true)
key destroyed
after unset
