--TEST--
Rule C4: a chain of coroutines each awaiting the next
--FILE--
<?php
function link_(int $n) {
    if ($n === 0) { Async\suspend(); return 0; }
    return 1 + Async\await(Async\spawn('link_', $n - 1));
}
echo Async\await(Async\spawn('link_', 200)), "\n";
?>
--EXPECT--
200
