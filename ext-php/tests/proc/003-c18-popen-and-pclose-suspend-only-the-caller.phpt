--TEST--
C18: popen() streams read and written in coroutines, and pclose() / fclose() waiting for the command's exit, suspend only the caller; pclose() returns the exit code as PHP does
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
require __DIR__ . '/../include/suspends.inc';

$tmp = sys_get_temp_dir() . '/tasync-popen-' . getmypid();
Async\await(Async\spawn(function () use ($tmp) {
    // Reading: lines arrive while the command runs.
    $p = popen('echo first; sleep 0.1; echo second; exit 3', 'r');
    [$line, $suspended] = run_and_see(fn() => fgets($p));
    var_dump($line);
    [$line, $suspended] = run_and_see(fn() => fgets($p));
    echo "waiting for the second line suspended only the caller: ", $suspended ? "yes" : "no", "\n";
    var_dump($line, fgets($p), feof($p));
    var_dump(pclose($p));

    // Writing: the command exits once it read its input.
    $p = popen("cat > " . escapeshellarg($tmp) . "; exit 4", 'wb');
    var_dump(fwrite($p, str_repeat('x', 200000)));
    [$code, $suspended] = run_and_see(fn() => pclose($p));
    var_dump($code, filesize($tmp));
    unlink($tmp);

    // pclose() waits for the exit without blocking the others.
    $p = popen('sleep 0.1; exit 2', 'r');
    [$code, $suspended] = run_and_see(fn() => pclose($p));
    echo "pclose waited for the exit, others ran: ", $suspended ? "yes" : "no", "; code ", $code, "\n";

    // fclose() of a popen() stream also reaps it; a signal gives the raw status.
    $p = popen('kill -KILL $$', 'r');
    var_dump(fread($p, 10), fclose($p));
    $p = popen('kill -TERM $$', 'r');
    var_dump(pclose($p));

    // Modes and errors as PHP's popen().
    var_dump(get_resource_type($p = popen('true', 'rb')), stream_get_meta_data($p)['mode'], pclose($p));
    foreach (['x', 'rw', 'r+'] as $mode) {
        try {
            popen('true', $mode);
        } catch (ValueError $e) {
            echo $e->getMessage(), "\n";
        }
    }
}));
?>
--EXPECT--
string(6) "first
"
waiting for the second line suspended only the caller: yes
string(7) "second
"
bool(false)
bool(true)
int(3)
int(200000)
int(4)
int(200000)
pclose waited for the exit, others ran: yes; code 2
string(0) ""
bool(true)
int(15)
string(6) "stream"
string(2) "rb"
int(0)
popen(): Argument #2 ($mode) must be one of "r", "rb", "w", or "wb"
popen(): Argument #2 ($mode) must be one of "r", "rb", "w", or "wb"
popen(): Argument #2 ($mode) must be one of "r", "rb", "w", or "wb"
