--TEST--
async.stall_timeout=0 disables the watchdog: a coroutine that computes for seconds is not reported
--INI--
async.stall_timeout=0
--FILE--
<?php
var_dump(ini_get('async.stall_timeout'));
$other = Async\spawn(function () { Async\delay(1); echo "the other coroutine ran\n"; });
$busy = Async\spawn(function () {
    $end = hrtime(true) + 1500 * 1000000;
    while (hrtime(true) < $end);
    echo "busy ends\n";
});
Async\await($busy);
Async\await($other);
?>
--EXPECT--
string(1) "0"
busy ends
the other coroutine ran
