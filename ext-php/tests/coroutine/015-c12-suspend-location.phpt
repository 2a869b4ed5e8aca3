--TEST--
Rule C12: getSuspendFileAndLine()/getSuspendLocation() name the last suspension point
--FILE--
<?php
$c = Async\spawn(function () {
    Async\suspend();
    Async\suspend();
});
var_dump($c->getSuspendFileAndLine(), $c->getSuspendLocation());
Async\suspend();
var_dump($c->getSuspendLocation() === __FILE__ . ":3");
Async\suspend();
var_dump($c->getSuspendFileAndLine() === [__FILE__, 4]);
?>
--EXPECT--
array(2) {
  [0]=>
  string(0) ""
  [1]=>
  int(0)
}
string(0) ""
bool(true)
bool(true)
