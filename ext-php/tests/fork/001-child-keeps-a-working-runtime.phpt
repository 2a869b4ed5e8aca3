--TEST--
docs/architecture.md, "Fork": a process forked while coroutines wait in the reactor keeps a working runtime in the child; neither process disturbs the other's watches
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl not available'); ?>
--FILE--
<?php
use function Async\{spawn, await, delay};

[$p, $c] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);   // parent <-> child
[$w, $wpeer] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);

// Waits in the reactor across the fork, in both processes.
$waiter = spawn(function () use ($w) { return fread($w, 100); });
// A timer that runs across the fork.
$ticks = 0;
$ticker = spawn(function () use (&$ticks) { for ($i = 0; $i < 5; $i++) { delay(5); $ticks++; } });
delay(1);

$pid = pcntl_fork();
if ($pid === 0) {
    fclose($p);
    // Stopping the copy of the wait must not remove the parent's watch.
    $waiter->cancel();
    try { await($waiter); } catch (Async\CancellationError $e) { $cancelled = true; }
    $reply = await(spawn(function () use ($c) {
        fwrite($c, "ping\n");
        return fgets($c);
    }));
    await($ticker);
    delay(10);
    fwrite($c, "child: got " . trim($reply) . ", waiter cancelled: " . var_export($cancelled, true) . ", ticks $ticks\n");
    exit(0);
}
fclose($c);
$server = spawn(function () use ($p) {
    echo "parent: child says ", fgets($p);
    fwrite($p, "pong\n");
    echo "parent: ", fgets($p);
});
await($server);
fwrite($wpeer, "data for the parent's waiter");
echo "parent: waiter read '", await($waiter), "'\n";
await($ticker);
echo "parent: ticks $ticks\n";
pcntl_waitpid($pid, $status);
echo "child exit status ", pcntl_wexitstatus($status), "\n";
?>
--EXPECT--
parent: child says ping
parent: child: got pong, waiter cancelled: true, ticks 5
parent: waiter read 'data for the parent's waiter'
parent: ticks 5
child exit status 0
