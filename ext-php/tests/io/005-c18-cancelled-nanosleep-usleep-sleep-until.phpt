--TEST--
Rule C18: cancelled time_nanosleep() returns what is left, usleep() returns, time_sleep_until() returns false
--FILE--
<?php
use function Async\spawn;
use function Async\await;

function cancelSoon(Async\Coroutine $c): void {
    spawn(function () use ($c) { $c->cancel(); });
}

$c = spawn(function () {
    $r = time_nanosleep(30, 5);
    var_dump(is_array($r), array_keys($r), $r['seconds'] < 30);
});
cancelSoon($c);
try { await($c); } catch (Async\CancellationError $e) { echo "cancelled\n"; }

$c = spawn(function () { var_dump(usleep(30000000)); });
cancelSoon($c);
try { await($c); } catch (Async\CancellationError $e) { echo "cancelled\n"; }

$c = spawn(function () { var_dump(time_sleep_until(microtime(true) + 30)); });
cancelSoon($c);
try { await($c); } catch (Async\CancellationError $e) { echo "cancelled\n"; }
?>
--EXPECT--
bool(true)
array(2) {
  [0]=>
  string(7) "seconds"
  [1]=>
  string(11) "nanoseconds"
}
bool(true)
cancelled
NULL
cancelled
bool(false)
cancelled
