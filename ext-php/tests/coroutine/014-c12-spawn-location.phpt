--TEST--
Rule C12: getSpawnFileAndLine()/getSpawnLocation() name where spawn() was called
--FILE--
<?php
function make() {
    return Async\spawn(fn() => null);
}
$c = make();
var_dump($c->getSpawnFileAndLine() === [__FILE__, 3]);
var_dump($c->getSpawnLocation() === __FILE__ . ":3");
$main = Async\currentCoroutine();
var_dump($main->getSpawnFileAndLine(), $main->getSpawnLocation());
?>
--EXPECT--
bool(true)
bool(true)
array(2) {
  [0]=>
  string(0) ""
  [1]=>
  int(0)
}
string(0) ""
