--TEST--
C18: proc_close() closes the pipes first (a child reading its stdin ends), then waits for the exit in the coroutine, and returns the exit code or the signal as PHP's proc_close does
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

Async\await(Async\spawn(function () {
    // cat ends once proc_close closed its stdin.
    $p = proc_open('cat > /dev/null; sleep 0.1; exit 6', [0 => ['pipe', 'r']], $pipes);
    fwrite($pipes[0], "data\n");
    [$code, $suspended] = run_and_see(fn() => proc_close($p));
    echo "proc_close suspended only the caller: ", $suspended ? "yes" : "no", "; code $code\n";
    var_dump(is_resource($pipes[0]), get_resource_type($pipes[0]));

    $p = proc_open('sleep 5', [], $pipes);
    proc_terminate($p, SIGKILL);
    var_dump(proc_close($p));

    // Reaped already by proc_get_status(): -1, as PHP gives it.
    $p = proc_open('exit 3', [], $pipes);
    do {
        Async\delay(5);
        $s = proc_get_status($p);
    } while ($s['running']);
    var_dump($s['exitcode'], proc_close($p));

    // The pipes of a child still writing: the child gets EPIPE, proc_close returns.
    $p = proc_open('yes 2>/dev/null', [1 => ['pipe', 'w']], $pipes);
    var_dump(strlen(fread($pipes[1], 4)));
    var_dump(proc_close($p) !== 0);

    try {
        proc_close($p);
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}));
?>
--EXPECT--
proc_close suspended only the caller: yes; code 6
bool(false)
string(7) "Unknown"
int(9)
int(3)
int(-1)
int(4)
bool(true)
proc_close(): supplied resource is not a valid process resource
