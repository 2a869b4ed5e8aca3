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
    echo $e->getMessage(), " ", (hrtime(true) - $t) / 1e6 < 1000 ? "without waiting for the rest" : "late", "\n";
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
early failure without waiting for the rest
