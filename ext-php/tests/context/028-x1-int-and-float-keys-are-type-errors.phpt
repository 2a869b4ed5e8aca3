--TEST--
Rule X1: keys are strings or objects only: in coercive mode too, an int or float key is a TypeError, not the string it would convert to
--FILE--
<?php
$ctx = Async\currentContext();
foreach ([1, 1.5, true, null] as $key) {
    try {
        $ctx->set($key, 'v');
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
foreach (['find', 'get', 'has', 'findLocal', 'getLocal', 'hasLocal', 'unset'] as $method) {
    try {
        $ctx->$method(7);
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
var_dump($ctx->has('1'));
$ctx->set('1', 'string key');
var_dump($ctx->get('1'));
?>
--EXPECT--
Async\Context::set(): Argument #1 ($key) must be of type object|string, int given
Async\Context::set(): Argument #1 ($key) must be of type object|string, float given
Async\Context::set(): Argument #1 ($key) must be of type object|string, bool given
Async\Context::set(): Argument #1 ($key) must be of type object|string, null given
Async\Context::find(): Argument #1 ($key) must be of type object|string, int given
Async\Context::get(): Argument #1 ($key) must be of type object|string, int given
Async\Context::has(): Argument #1 ($key) must be of type object|string, int given
Async\Context::findLocal(): Argument #1 ($key) must be of type object|string, int given
Async\Context::getLocal(): Argument #1 ($key) must be of type object|string, int given
Async\Context::hasLocal(): Argument #1 ($key) must be of type object|string, int given
Async\Context::unset(): Argument #1 ($key) must be of type object|string, int given
bool(false)
string(10) "string key"
