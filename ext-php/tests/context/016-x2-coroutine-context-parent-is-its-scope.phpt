--TEST--
Rule X2: a coroutine's private context has its scope's context as parent; its own keys shadow the scope's
--FILE--
<?php
$scope = new Async\Scope();
$scope->context->set('who', 'scope');
$scope->context->set('only-scope', 1);
$r = Async\await($scope->spawn(function () {
    $ctx = Async\coroutineContext();
    $ctx->set('who', 'coroutine');
    return [$ctx->get('who'), $ctx->get('only-scope'), $ctx->hasLocal('only-scope'), Async\currentContext()->get('who')];
}));
var_dump($r);
?>
--EXPECT--
array(4) {
  [0]=>
  string(9) "coroutine"
  [1]=>
  int(1)
  [2]=>
  bool(false)
  [3]=>
  string(5) "scope"
}
