--TEST--
C18: cancelled while their command runs, shell_exec() returns false, exec() and system() false with exit code -1, pclose() -1, a pipe read false with PHP's notice; the command is not killed; the cancellation is thrown at the next suspension
--SKIPIF--
<?php
// Under valgrind the extension's fork of the whole process (from a pool
// thread, which valgrind runs one at a time with the main thread) takes
// seconds: the timing and the races this test pins measure valgrind there.
// The other proc/ tests keep these code paths under the leak check.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip the fork of a command under valgrind takes seconds: its timing measures valgrind');
?>
--FILE--
<?php
$calls = [
    'shell_exec' => fn() => var_export(shell_exec('exec 2>/dev/null; sleep 5; echo late'), true),
    'exec' => function () { $r = exec('sleep 5', $out, $code); return var_export($r, true) . " code $code"; },
    'system' => function () { $r = system('sleep 5', $code); return var_export($r, true) . " code $code"; },
    'pclose' => function () { $p = popen('sleep 5', 'r'); return var_export(pclose($p), true); },
    'fgets' => function () { $p = proc_open('sleep 5', [1 => ['pipe', 'w']], $pipes); return var_export(fgets($pipes[1]), true); },
];
set_error_handler(function ($no, $msg) { echo "  notice: $msg\n"; return true; });
foreach ($calls as $name => $call) {
    $start = hrtime(true);
    $c = Async\spawn(function () use ($name, $call) {
        echo "$name: ", $call(), "\n";
        Async\delay(1);
        echo "not reached\n";
    });
    Async\delay(100);
    $c->cancel();
    try {
        Async\await($c);
    } catch (Async\CancellationError $e) {
        echo "  then cancelled", (hrtime(true) - $start) / 1e9 < 4 ? " at once" : " late", "\n";
    }
}
?>
--EXPECTF--
shell_exec:   notice: shell_exec(): Read of %d bytes failed with errno=125 Operation canceled
false
  then cancelled at once
exec:   notice: exec(): Read of %d bytes failed with errno=125 Operation canceled
false code -1
  then cancelled at once
system:   notice: system(): Read of %d bytes failed with errno=125 Operation canceled
false code -1
  then cancelled at once
pclose: -1
  then cancelled at once
fgets:   notice: fgets(): Read of %d bytes failed with errno=125 Operation canceled
false
  then cancelled at once
