--TEST--
Rule X2: a scope's context values are released with the scope
--FILE--
<?php
class Res { public function __destruct() { echo "value released\n"; } }
$scope = new Async\Scope();
$scope->context->set('r', new Res);
echo "dropping the scope\n";
unset($scope);
echo "end\n";
?>
--EXPECT--
dropping the scope
value released
end
