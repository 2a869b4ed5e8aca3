--TEST--
await_first_success() skips failures and returns [result, errors]
--FILE--
<?php
[$result, $errors] = Async\await_first_success([
    'x' => Async\spawn(function () { throw new Exception("x failed"); }),
    'y' => Async\spawn(function () { Async\delay(10); return "y won"; }),
    'z' => Async\spawn(function () { Async\delay(200); return "z"; }),
]);
echo $result, "\n";
foreach ($errors as $k => $e) echo "$k: ", $e->getMessage(), "\n";
[$result, $errors] = Async\await_first_success([Async\spawn(function () { throw new Exception("1"); }), Async\spawn(function () { throw new Exception("2"); })]);
var_dump($result, count($errors));
?>
--EXPECT--
y won
x: x failed
NULL
int(2)
