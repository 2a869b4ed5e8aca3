--TEST--
Rule S1: Scope::inherit() rejects what is not a ScopeProvider, and a provider that returns something else
--FILE--
<?php
final class Broken implements Async\ScopeProvider {
    public function provideScope(): ?Async\Scope { return null; }
}
final class Liar implements Async\ScopeProvider {
    public function provideScope(): ?Async\Scope { throw new RuntimeException("no scope today"); }
}
try {
    Async\Scope::inherit(new stdClass);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    Async\Scope::inherit("scope");
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    Async\Scope::inherit(new Liar);
} catch (RuntimeException $e) {
    echo $e->getMessage(), "\n";
}
var_dump(Async\Scope::inherit(new Broken) instanceof Async\Scope);
?>
--EXPECT--
Async\Scope::inherit(): Argument #1 ($parentScope) must be of type ?Async\ScopeProvider, stdClass given
Async\Scope::inherit(): Argument #1 ($parentScope) must be of type ?Async\ScopeProvider, string given
no scope today
bool(true)
