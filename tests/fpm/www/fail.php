<?php
// One way for a coroutine to end the request; the worker must survive.
use function Async\{spawn, await, delay};

register_shutdown_function(fn() => print("shutdown ran\n"));
echo "pid ", getmypid(), "\n";
$other = spawn(function () { try { delay(5000); echo "other went on\n"; } finally { echo "other finally\n"; } });
$kind = $_GET['kind'] ?? '';
$failing = spawn(function () use ($kind) {
    delay(5);
    switch ($kind) {
        case 'fatal':
            trigger_error("fatal in a coroutine", E_USER_ERROR);
        case 'oom':
            ini_set('memory_limit', '32M');
            $s = str_repeat('x', 64 << 20);
            break;
        case 'timeout':
            set_time_limit(1);
            $x = 0;
            while (true) { $x++; }
        case 'exception':
            throw new RuntimeException("uncaught in a coroutine");
    }
});
await($failing);
echo "main went on\n";
