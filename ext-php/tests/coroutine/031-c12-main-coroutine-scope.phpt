--TEST--
Rule C3/C12: the main coroutine belongs to the global scope and has id 0
--FILE--
<?php
$main = Async\currentCoroutine();
var_dump($main->getId(), $main->getScope() === Async\Scope::global(), $main->isRunning());
$seen = Async\await(Async\spawn(fn() => [$main->isSuspended(), $main->getScope() === Async\Scope::global()]));
var_dump($seen);
?>
--EXPECT--
int(0)
bool(true)
bool(true)
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
