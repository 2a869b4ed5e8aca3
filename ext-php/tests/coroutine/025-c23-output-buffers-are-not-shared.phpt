--TEST--
Rule C23: a coroutine's output does not go into the spawner's output buffer (each coroutine has its own)
--FILE--
<?php
ob_start();
Async\await(Async\spawn(function () { echo "from coroutine\n"; }));
$out = ob_get_clean();
echo "the spawner's buffer held: ", json_encode($out), "\n";
?>
--EXPECT--
from coroutine
the spawner's buffer held: ""
