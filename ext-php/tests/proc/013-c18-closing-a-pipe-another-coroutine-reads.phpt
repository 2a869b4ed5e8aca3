--TEST--
C18: fclose() of a pipe another coroutine waits to read ends that read (false, the stream at its end) and returns once the reader left; proc_close() does the same for the pipes it closes
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
Async\await(Async\spawn(function () {
    $p = proc_open('sleep 5', [1 => ['pipe', 'w']], $pipes);
    $reader = Async\spawn(function () use ($pipes) {
        $r = fread($pipes[1], 10);
        return [$r, is_resource($pipes[1])];
    });
    Async\delay(50);
    var_dump(fclose($pipes[1]));
    var_dump(Async\await($reader));
    proc_terminate($p);
    var_dump(proc_close($p));

    $p = proc_open('sleep 5', [1 => ['pipe', 'w']], $pipes);
    $reader = Async\spawn(fn() => fgets($pipes[1]));
    Async\delay(50);
    proc_terminate($p);
    var_dump(proc_close($p), Async\await($reader));
}));
?>
--EXPECT--
bool(true)
array(2) {
  [0]=>
  bool(false)
  [1]=>
  bool(false)
}
int(15)
int(15)
bool(false)
