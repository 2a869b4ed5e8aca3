--TEST--
Rule S2: spawn_with() spawns into the scope its ScopeProvider provides (a Scope, a TaskGroup, a class of the user's; null means the current scope) and refuses a closed one
--FILE--
<?php
$scope = new Async\Scope();
$c = Async\spawn_with($scope, fn (int $a, int $b) => $a + $b, 20, 22);
$inScope = $c->getScope() === $scope;
echo Async\await($c), " in the provided scope: ", var_export($inScope, true), "\n";
final class Provider implements Async\ScopeProvider
{
    public function __construct(public ?Async\Scope $scope) {}
    public function provideScope(): ?Async\Scope { return $this->scope; }
}
$child = Async\Scope::inherit($scope);
$in = Async\spawn_with(new Provider($child), fn () => Async\currentCoroutine()->getScope());
var_dump(Async\await($in) === $child);
$current = Async\spawn_with(new Provider(null), fn () => 1);
var_dump($current->getScope() === Async\Scope::global());
$group = new Async\TaskGroup();
$t = Async\spawn_with($group, fn () => "in the group's scope");
$inGroup = $t->getScope() === $group->getScope();
echo Async\await($t), ": ", var_export($inGroup, true), "\n";
$scope->cancel();
try {
    Async\spawn_with($scope, fn () => 1);
} catch (Async\AsyncException $e) {
    echo "closed: ", get_class($e), "\n";
}
try {
    Async\spawn_with(new stdClass(), fn () => 1);
} catch (TypeError $e) {
    echo "TypeError\n";
}
?>
--EXPECT--
42 in the provided scope: true
bool(true)
bool(true)
in the group's scope: true
closed: Async\AsyncException
TypeError
