--TEST--
await_any_or_fail() returns the first to complete, or throws its exception
--FILE--
<?php
$a = Async\spawn(function () { Async\delay(50); return "a"; });
$b = Async\spawn(function () { Async\delay(5); return "b"; });
echo Async\await_any_or_fail([$a, $b]), "\n";
echo Async\await_any_or_fail([$a]), "\n";
try {
    Async\await_any_or_fail([Async\spawn(function () { Async\delay(100); }), Async\spawn(function () { throw new Exception("first fails"); })]);
} catch (Exception $e) {
    echo $e->getMessage(), "\n";
}
try {
    Async\await_any_or_fail([]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
b
a
first fails
Async\await_any_or_fail(): Argument #1 ($triggers) must contain at least one awaitable
