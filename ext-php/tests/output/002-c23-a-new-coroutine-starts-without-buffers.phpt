--TEST--
A new coroutine starts with no output buffer of its own: its output goes to the SAPI, not into the spawner's buffer
--FILE--
<?php
ob_start();
echo "main buffered\n";
$child = Async\spawn(function () {
    echo "child level ", ob_get_level(), ", status entries ", count(ob_get_status(true)), "\n";
});
Async\await($child);
echo "main level ", ob_get_level(), "\n";
$main = ob_get_clean();
echo "main's buffer held: ", json_encode($main), "\n";
?>
--EXPECT--
child level 0, status entries 0
main's buffer held: "main buffered\nmain level 1\n"
