--TEST--
Rule G2: await_any_of_or_fail() returns the results of the first $count successes, or throws the first failure at once
--FILE--
<?php
var_dump(Async\await_any_of_or_fail(2, [
    'x' => Async\spawn(function () { Async\delay(30); return "x"; }),
    'y' => Async\spawn(function () { Async\delay(10); return "y"; }),
    'z' => Async\spawn(function () { Async\delay(1); return "z"; }),
]));
$long = Async\spawn(function () { Async\delay(100); return "long"; });
try {
    Async\await_any_of_or_fail(2, [$long, Async\spawn(fn() => "quick"), Async\spawn(function () { Async\delay(5); throw new LogicException("broke"); })]);
} catch (LogicException $e) {
    echo "thrown: ", $e->getMessage(), "; the long one still runs: ", $long->isCompleted() ? "no" : "yes", "\n";
}
var_dump(Async\await_any_of_or_fail(0, [$long]));
try {
    Async\await_any_of_or_fail(-1, []);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
array(2) {
  ["y"]=>
  string(1) "y"
  ["z"]=>
  string(1) "z"
}
thrown: broke; the long one still runs: yes
array(0) {
}
Async\await_any_of_or_fail(): Argument #1 ($count) must be greater than or equal to 0
