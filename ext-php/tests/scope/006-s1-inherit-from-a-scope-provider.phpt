--TEST--
Rule S1: Scope::inherit() takes any ScopeProvider (a Scope, a TaskGroup, a user class); null from the provider means the current scope
--FILE--
<?php
final class Service implements Async\ScopeProvider {
    public function __construct(public ?Async\Scope $scope) {}
    public function provideScope(): ?Async\Scope { return $this->scope; }
}
$parent = new Async\Scope();
$a = Async\Scope::inherit(new Service($parent));
var_dump($parent->getChildScopes() === [$a]);
$b = Async\Scope::inherit(new Service(null));
var_dump(in_array($b, Async\Scope::global()->getChildScopes(), true));
$group = new Async\TaskGroup();
$c = Async\Scope::inherit($group);
var_dump($group->getScope()->getChildScopes() === [$c]);
var_dump($parent->provideScope() === $parent);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
