--TEST--
An output callback that suspends does not lock other coroutines' output buffering
--FILE--
<?php
$slow = Async\spawn(function () {
    ob_start(function ($buffer) {
        $GLOBALS['inCallback'] = true;
        Async\await($GLOBALS['other']);
        return "slow callback: " . $buffer;
    });
    echo "slow text\n";
    ob_end_flush();
    echo "slow done\n";
});
$other = Async\spawn(function () {
    for ($i = 0; empty($GLOBALS['inCallback']) && $i < 1000; $i++) {
        Async\suspend();
    }
    ob_start();
    echo "other buffered";
    $s = ob_get_clean();
    echo "other captured: $s\n";
});
Async\await($slow);
Async\await($other);
?>
--EXPECT--
other captured: other buffered
slow callback: slow text
slow done
