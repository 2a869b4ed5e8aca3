--TEST--
ob_start() in a coroutine captures only that coroutine's output, also while it is suspended
--FILE--
<?php
$renderer = Async\spawn(function () {
    ob_start();
    echo "<p>before the I/O</p>";
    Async\delay(20);
    echo "<p>after the I/O</p>";
    return ob_get_clean();
});
$chatty = Async\spawn(function () {
    Async\delay(5);
    echo "chatty prints while the renderer waits\n";
    var_dump(ob_get_level());
});
$page = Async\await($renderer);
Async\await($chatty);
echo "renderer captured: $page\n";
var_dump(ob_get_level());
?>
--EXPECT--
chatty prints while the renderer waits
int(0)
renderer captured: <p>before the I/O</p><p>after the I/O</p>
int(0)
