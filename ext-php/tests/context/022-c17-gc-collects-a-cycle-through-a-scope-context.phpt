--TEST--
Rule C17: the collector sees a finished scope's context values: a cycle through them is collected
--FILE--
<?php
class Node { public $scope; public function __destruct() { echo "node destroyed\n"; } }
$scope = new Async\Scope();
$node = new Node;
$node->scope = $scope;
$scope->context->set('node', $node);  // scope -> context -> node -> scope
unset($scope, $node);
echo "unreachable\n";
var_dump(gc_collect_cycles() >= 1);
echo "end\n";
?>
--EXPECT--
unreachable
node destroyed
bool(true)
end
