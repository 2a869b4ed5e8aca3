--TEST--
Rule C13: a coroutine waits inside a Fiber (delay, suspend, await, socket I/O) while the other coroutines run; the fiber stays with its coroutine
--FILE--
<?php
use function Async\{spawn, await, delay, suspend};

[$r, $w] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$log = [];
$waiter = spawn(function () use ($r, &$log) {
    $f = new Fiber(function () use ($r, &$log) {
        $log[] = "fiber: delay";
        delay(20);
        $log[] = "fiber: suspend";
        suspend();
        $log[] = "fiber: await";
        $v = await(spawn(function () use (&$log) { $log[] = "awaited runs"; return 7; }));
        $log[] = "fiber: fread";
        $data = fread($r, 5);
        $log[] = "fiber: read $data, awaited $v";
        return Fiber::getCurrent() !== null;
    });
    $f->start();
    $log[] = "waiter: fiber ended, in a fiber: " . var_export($f->getReturn(), true);
});
$other = spawn(function () use ($w, &$log) {
    $log[] = "other 0";
    suspend();                      // the fiber's coroutine waits on its timer meanwhile
    $log[] = "other 1";
    while (!in_array("fiber: fread", $log, true)) {
        delay(5);                   // runs meanwhile, the fiber's coroutine waits
    }
    fwrite($w, "hello");
    $log[] = "other wrote";
    var_dump(Fiber::getCurrent());
});
await($waiter);
await($other);
echo implode("\n", $log), "\n";
?>
--EXPECT--
NULL
fiber: delay
other 0
other 1
fiber: suspend
fiber: await
awaited runs
fiber: fread
other wrote
fiber: read hello, awaited 7
waiter: fiber ended, in a fiber: true
