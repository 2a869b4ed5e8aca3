--TEST--
Buffers a coroutine leaves open are flushed when it ends, innermost first through each callback, as PHP does at the end of a request
--FILE--
<?php
$c = Async\spawn(function () {
    ob_start(function ($buffer, $phase) { return "[outer:" . $buffer . "]\n"; });
    echo "outer text ";
    ob_start(function ($buffer, $phase) { return "(inner:" . strtoupper($buffer) . ")"; });
    echo "inner text";
    Async\delay(5);
    return "returned";
});
$result = Async\await($c);
echo "main sees $result\n";
?>
--EXPECT--
[outer:outer text (inner:INNER TEXT)]
main sees returned
