<?php
// Output and header() from coroutines reach the response, in order.
use function Async\{spawn, await, delay};

$a = spawn(function () {
    header('X-From-Coroutine: yes');
    delay(10);
    echo "from coroutine a\n";
});
$b = spawn(function () {
    echo "from coroutine b\n";
    ob_start();
    echo "buffered in b\n";
    delay(20);
    ob_end_flush();
});
await($a);
echo "from main\n";
await($b);
echo "main end\n";
