--TEST--
Rule X1: any PHP value can be stored, null included (has() sees a null value); strings are binary-safe keys
--FILE--
<?php
$ctx = (new Async\Scope())->context;
$values = ['null' => null, 'int' => 42, 'float' => 1.5, 'array' => [1, [2]], 'object' => new ArrayObject(), "bin\0key" => "bin\0value", '' => 'empty key'];
foreach ($values as $k => $v) {
    $ctx->set($k, $v);
}
foreach ($values as $k => $v) {
    echo json_encode($k), ": ", var_export($ctx->has($k), true), " ", $ctx->get($k) === $v ? "same" : "different", "\n";
}
var_dump($ctx->has("bin"));
?>
--EXPECT--
"null": true same
"int": true same
"float": true same
"array": true same
"object": true same
"bin\u0000key": true same
"": true same
bool(false)
