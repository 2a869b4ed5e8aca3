--TEST--
await_all_or_fail() returns every result in input order, or throws the first failure at once
--FILE--
<?php
var_dump(Async\await_all_or_fail([
    'slow' => Async\spawn(function () { Async\delay(30); return "s"; }),
    'fast' => Async\spawn(fn() => "f"),
]));
var_dump(Async\await_all_or_fail([]));
$long = Async\spawn(function () { Async\delay(2000); return "long"; });
$t = hrtime(true);
try {
    Async\await_all_or_fail([$long, Async\spawn(function () { Async\delay(10); throw new Exception("early failure"); })]);
} catch (Exception $e) {
    echo $e->getMessage(), ", the long one still runs: ", $long->isCompleted() ? "no" : "yes", "\n";
}
$long->cancel();
?>
--EXPECT--
array(2) {
  ["slow"]=>
  string(1) "s"
  ["fast"]=>
  string(1) "f"
}
array(0) {
}
early failure, the long one still runs: yes
