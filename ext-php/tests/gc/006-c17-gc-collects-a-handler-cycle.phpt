--TEST--
Rule C17: a finished scope's exception handler is seen by the collector: a closure holding the scope is collected with it
--FILE--
<?php
class Marker { public function __destruct() { echo "marker destroyed\n"; } }
function make(): void {
    $scope = new Async\Scope();
    $marker = new Marker;
    $scope->setExceptionHandler(function () use ($scope, $marker) {});
}
make();
echo "make() returned\n";
gc_collect_cycles();
echo "end\n";
?>
--EXPECT--
make() returned
marker destroyed
end
