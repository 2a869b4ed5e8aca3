--TEST--
Rule X2: a disposed (closed) scope keeps its context while it lives; its zombies still read it
--FILE--
<?php
$scope = new Async\Scope();
$scope->context->set('config', 'v1');
$scope->spawn(function () { Async\delay(5); echo "zombie reads: ", Async\currentContext()->get('config'), "\n"; });
Async\suspend();
@$scope->disposeSafely();
var_dump($scope->context->get('config'));
Async\delay(20);
?>
--EXPECT--
string(2) "v1"
zombie reads: v1
