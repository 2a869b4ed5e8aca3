--TEST--
C18: a child whose stdin one coroutine feeds (4 MiB, far more than a pipe holds) while another coroutine reads its stdout does not hang the process
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$p = proc_open('cat', [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
$data = str_repeat("0123456789abcdef", 1 << 18);
$writer = Async\spawn(function () use ($pipes, $data) {
    $written = 0;
    while ($written < strlen($data)) {
        $n = fwrite($pipes[0], substr($data, $written, 65536));
        if ($n === false) {
            return "write failed";
        }
        $written += $n;
    }
    fclose($pipes[0]);
    return $written;
});
$reader = Async\spawn(function () use ($pipes) {
    $got = '';
    while (!feof($pipes[1])) {
        $got .= fread($pipes[1], 8192);
    }
    return $got;
});
[$written, $got] = Async\await_all_or_fail([$writer, $reader], Async\timeout((int) (30000 * services_time_scale())));
var_dump($written, strlen($got), $got === $data, proc_close($p));
?>
--EXPECT--
int(4194304)
int(4194304)
bool(true)
int(0)
