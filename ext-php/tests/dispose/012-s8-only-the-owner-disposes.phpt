--TEST--
Rule S8: only the object new Scope()/inherit() returned disposes the scope; objects obtained later only stand for it
--FILE--
<?php
$scope = new Async\Scope();
$child = Async\Scope::inherit($scope);
$child->spawn(fn() => Async\delay(10));
$id = spl_object_id($child);
unset($child);   // the owner: the child is disposed safely (a zombie)
echo "child closed: ", var_export($scope->getChildScopes()[0]->isClosed(), true), "\n";

$other = Async\Scope::inherit($scope);
$again = $scope->getChildScopes()[1];
var_dump($again === $other);
$c = Async\spawn(fn() => Async\currentCoroutine()->getScope());
$global = Async\await($c);
unset($global);  // not an owner: nothing happens to the global scope
var_dump(Async\Scope::global()->isClosed());
?>
--EXPECTF--
Warning: Coroutine is zombie at %s:4 in Scope disposed at %s:6 in %s on line 6
child closed: true
bool(true)
bool(false)
