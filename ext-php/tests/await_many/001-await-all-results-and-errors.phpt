--TEST--
await_all() waits for every awaitable and returns [results, errors] keyed like the input
--FILE--
<?php
$r = Async\await_all([
    'a' => Async\spawn(function () { Async\delay(20); return 1; }),
    'b' => Async\spawn(function () { throw new Exception("b failed"); }),
    'c' => Async\spawn(fn() => 3),
]);
[$results, $errors] = $r;
var_dump($results);
foreach ($errors as $k => $e) echo "$k: ", $e->getMessage(), "\n";
?>
--EXPECT--
array(2) {
  ["a"]=>
  int(1)
  ["c"]=>
  int(3)
}
b: b failed
