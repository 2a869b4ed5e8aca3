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
var_dump(Async\getCoroutines());
Async\spawn(function () { echo "spawn after a Fiber works\n"; });
?>
--EXPECT--
NULL
int(0)
bool(true)
array(0) {
}
spawn after a Fiber works
