--TEST--
Rule C4: several coroutines await the same one and all get its result
--FILE--
<?php
$source = Async\spawn(function () { Async\delay(10); return "shared"; });
$waiters = [];
for ($i = 0; $i < 3; $i++) {
    $waiters[] = Async\spawn(fn() => "w$i:" . Async\await($source));
}
foreach ($waiters as $w) echo Async\await($w), "\n";
echo "main:", Async\await($source), "\n";
?>
--EXPECT--
w0:shared
w1:shared
w2:shared
main:shared
