--TEST--
await_all() accepts the same coroutine twice and coroutines already completed
--FILE--
<?php
$c = Async\spawn(fn() => "c");
Async\await($c);
$d = Async\spawn(function () { Async\suspend(); return "d"; });
[$results, $errors] = Async\await_all(['x' => $c, 'y' => $d, 'z' => $d]);
var_dump($results, $errors);
?>
--EXPECT--
array(3) {
  ["x"]=>
  string(1) "c"
  ["y"]=>
  string(1) "d"
  ["z"]=>
  string(1) "d"
}
array(0) {
}
