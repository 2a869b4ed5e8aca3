--TEST--
Rule X1: new Async\Context() is a free-standing context: no parent, so find() and get() see only its own keys; its values live as long as it does
--FILE--
<?php
Async\rootContext()->set('app', 'demo');
Async\currentContext()->set('request', 42);
$ctx = new Async\Context();
var_dump($ctx->find('app'), $ctx->has('request'));
$key = new stdClass();
var_dump($ctx->set('user', 'alice') === $ctx, $ctx->set($key, [1, 2]) === $ctx);
var_dump($ctx->get('user'), $ctx->findLocal($key), $ctx->has('user'), $ctx->hasLocal('user'));
$seen = Async\await(Async\spawn(fn() => $ctx->get('user')));
var_dump($seen);
try {
    $ctx->set('user', 'bob');
} catch (Async\AsyncException $e) {
    echo $e->getMessage(), "\n";
}
$ctx->unset('user');
var_dump($ctx->get('user'));
final class Dtor { public function __destruct() { echo "value released\n"; } }
$ctx->set('obj', new Dtor());
unset($ctx);
echo "end\n";
?>
--EXPECT--
NULL
bool(false)
bool(true)
bool(true)
string(5) "alice"
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(2)
}
bool(true)
bool(true)
string(5) "alice"
The key "user" is already set in this context; pass $replace = true to replace it
NULL
value released
end
