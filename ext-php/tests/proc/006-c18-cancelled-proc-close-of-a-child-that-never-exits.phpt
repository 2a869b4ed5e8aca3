--TEST--
C18: proc_close() of a child that never exits, cancelled, returns -1 at once without killing the child; the cancellation is thrown at the coroutine's next suspension
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$pidfile = sys_get_temp_dir() . '/tasync-proc-' . getmypid() . '.pid';
$c = Async\spawn(function () use ($pidfile) {
    $p = proc_open('echo $$ > ' . escapeshellarg($pidfile) . '; exec sleep 30', [], $pipes);
    $start = hrtime(true);
    $code = proc_close($p);
    printf("proc_close returned %d after less than 5 s: %s\n", $code,
        (hrtime(true) - $start) / 1e9 < 5 * services_time_scale() ? "yes" : "no");
    Async\delay(10);
    echo "not reached\n";
});
// Cancelled once the child runs (it wrote its pid; slow under valgrind).
$deadline = hrtime(true) + 20e9 * services_time_scale();
while (trim((string) @file_get_contents($pidfile)) === '' && hrtime(true) < $deadline) {
    Async\delay(20);
}
Async\delay(100);
$c->cancel();
try {
    Async\await($c);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
$pid = (int) trim(file_get_contents($pidfile));
unlink($pidfile);
echo "the child still runs: ", file_exists("/proc/$pid") && !str_contains(file_get_contents("/proc/$pid/stat"), ') Z ') ? "yes" : "no", "\n";
if ($pid > 0) { // never kill(0): that is the whole process group
    exec("kill $pid");
}
?>
--EXPECT--
proc_close returned -1 after less than 5 s: yes
await: cancelled
the child still runs: yes
