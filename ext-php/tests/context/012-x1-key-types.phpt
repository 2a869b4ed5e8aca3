--TEST--
Rule X1: keys are strings or objects; other types are a TypeError
--DESCRIPTION--
With strict types; in coercive mode PHP turns scalars into string keys, as
for any string parameter.
--FILE--
<?php
declare(strict_types=1);
$ctx = Async\currentContext();
foreach ([1, 1.5, true, null, []] as $key) {
    try {
        $ctx->set($key, 'v');
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    $ctx->get([]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
Async\Context::set(): Argument #1 ($key) must be of type object|string, int given
Async\Context::set(): Argument #1 ($key) must be of type object|string, float given
Async\Context::set(): Argument #1 ($key) must be of type object|string, bool given
Async\Context::set(): Argument #1 ($key) must be of type object|string, null given
Async\Context::set(): Argument #1 ($key) must be of type object|string, array given
Async\Context::get(): Argument #1 ($key) must be of type object|string, array given
