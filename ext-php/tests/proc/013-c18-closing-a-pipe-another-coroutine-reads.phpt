--TEST--
C18: fclose() of a pipe another coroutine waits to read ends that read (false, the stream at its end) and returns once the reader left; proc_close() does the same for the pipes it closes
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
