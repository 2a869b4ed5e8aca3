--TEST--
Rule X2: Coroutine::getContext() is the coroutine's private context (coroutineContext() inside it), from outside too; once the coroutine completed it is empty and has no parent
--FILE--
<?php
$scope = new Async\Scope();
$scope->context->set('shared', 'from the scope');
$c = $scope->spawn(function () {
    Async\coroutineContext()->set('mine', 'private');
    Async\suspend();
    return Async\coroutineContext();
});
Async\suspend();
$ctx = $c->getContext();
var_dump($ctx->get('mine'), $ctx->get('shared'), $ctx->getLocal('shared'));
$inside = Async\await($c);
var_dump($inside === $c->getContext());
var_dump($c->getContext()->has('mine'), $c->getContext()->has('shared'));
?>
--EXPECT--
string(7) "private"
string(14) "from the scope"
NULL
bool(true)
bool(false)
bool(false)
