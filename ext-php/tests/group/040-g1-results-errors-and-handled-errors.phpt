--TEST--
Rule G1: getResults() and getErrors() by key in spawn order; errors nobody handled reach the group's scope when the group is released; getErrors(), suppressErrors() and iteration handle them
--FILE--
<?php
$parent = new Async\Scope();
$parent->setChildScopeExceptionHandler(function ($scope, $co, Throwable $e) {
    echo "reached the scope: ", $e->getMessage(), "\n";
});
function group_with_failure(Async\Scope $parent, string $message): Async\TaskGroup {
    $g = new Async\TaskGroup(scope: $parent);
    $g->spawnWithKey('bad', function () use ($message) { throw new RuntimeException($message); });
    $g->spawnWithKey('good', fn() => "fine");
    $g->close();
    $g->awaitCompletion();
    return $g;
}
$g = group_with_failure($parent, "never read");
var_dump($g->getResults());
unset($g);
$g = group_with_failure($parent, "read by getErrors()");
foreach ($g->getErrors() as $k => $e) echo "$k: ", $e->getMessage(), "\n";
unset($g);
$g = group_with_failure($parent, "suppressed");
$g->suppressErrors();
unset($g);
$g = group_with_failure($parent, "iterated");
foreach ($g as $k => [$r, $e]) echo "$k: ", $e ? $e->getMessage() : $r, "\n";
unset($g);
$g = group_with_failure($parent, "reported by all()");
try { Async\await($g->all()); } catch (RuntimeException $e) { echo "all(): ", $e->getMessage(), "\n"; }
unset($g);
echo "end\n";
?>
--EXPECT--
array(1) {
  ["good"]=>
  string(4) "fine"
}
reached the scope: never read
bad: read by getErrors()
bad: iterated
good: fine
all(): reported by all()
end
