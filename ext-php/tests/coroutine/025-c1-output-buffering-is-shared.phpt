--TEST--
Rule C1: coroutines share the request's output buffers
--FILE--
<?php
ob_start();
Async\await(Async\spawn(function () { echo "from coroutine"; }));
$out = ob_get_clean();
echo strtoupper($out), "\n";
?>
--EXPECT--
FROM COROUTINE
