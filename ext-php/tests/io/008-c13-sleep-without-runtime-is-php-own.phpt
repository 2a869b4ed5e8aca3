--TEST--
Rule C18: before the runtime exists nothing changes; a Fiber that sleeps does not start the runtime (rule C13)
--FILE--
<?php
$f = new Fiber(function () {
    var_dump(usleep(1000));
    Fiber::suspend(sleep(0));
    return time_nanosleep(0, 1000);
});
var_dump($f->start());
$f->resume();
var_dump($f->getReturn());
try {
    Async\spawn(fn() => 1);
} catch (Async\AsyncException $e) {
    echo "spawn after a Fiber still fails\n";
}
?>
--EXPECT--
NULL
int(0)
bool(true)
spawn after a Fiber still fails
