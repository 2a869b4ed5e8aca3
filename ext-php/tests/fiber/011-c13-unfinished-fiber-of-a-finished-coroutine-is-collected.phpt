--TEST--
Rule C13: a Fiber left suspended by a coroutine that finished is destroyed cleanly (its finally blocks run) when released, from another coroutine, and by the cycle collector
--FILE--
<?php
use function Async\{spawn, await, delay};

class Holder { public $fiber; public $self; function __destruct() { echo "holder destroyed\n"; } }

$kept = await(spawn(function () {
    $f = new Fiber(function () {
        try { Fiber::suspend(1); echo "not reached\n"; } finally { echo "finally of the kept fiber\n"; }
    });
    $f->start();
    return $f;                      // the coroutine ends, the fiber stays suspended
}));
await(spawn(function () use (&$kept) {
    delay(1);
    echo "releasing it from another coroutine\n";
    $kept = null;
    echo "released\n";
}));

await(spawn(function () {
    $h = new Holder();
    $h->self = $h;                  // a cycle: only the collector frees it
    $h->fiber = new Fiber(function () use ($h) {
        try { Fiber::suspend(); } finally { echo "finally of the fiber in a cycle\n"; }
    });
    $h->fiber->start();
}));
echo "collecting\n";
var_dump(gc_collect_cycles() > 0);
$left = spawn(function () {
    $f = new Fiber(function () { try { Fiber::suspend(); } finally { echo "finally at the end of the script\n"; } });
    $f->start();
    $GLOBALS['last'] = $f;
});
echo "end\n";
?>
--EXPECT--
releasing it from another coroutine
finally of the kept fiber
released
collecting
finally of the fiber in a cycle
holder destroyed
bool(true)
end
finally at the end of the script
