--TEST--
C18: stream_copy_to_stream() of 50 MiB into a plain file, from php://memory and from another plain file, lets the other coroutines run while it copies, on every backend
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

$size = large_transfer_bytes();
$data = str_repeat('0123456789abcdef', $size >> 4);
$src = sys_get_temp_dir() . '/tasync-scts-src-' . getmypid() . '.dat';
$dst = sys_get_temp_dir() . '/tasync-scts-dst-' . getmypid() . '.dat';
file_put_contents($src, $data);

Async\await(Async\spawn(function () use ($src, $dst, $data, $size) {
    $mem = fopen('php://memory', 'w+');
    fwrite($mem, $data);
    rewind($mem);
    foreach (['php://memory' => $mem, 'a plain file' => fopen($src, 'r')] as $name => $from) {
        [$n, $turns] = count_turns(function () use ($from, $dst) {
            $to = fopen($dst, 'w');
            $n = stream_copy_to_stream($from, $to);
            fclose($to);
            return $n;
        });
        fclose($from);
        echo "from $name: ", $n === $size && md5_file($dst) === md5($data) ? "the data" : "wrong ($n)", "; ",
            $turns >= 2 ? "the others ran meanwhile" : "the others did not run ($turns turns)", "\n";
    }
}));
unlink($src);
unlink($dst);
?>
--EXPECT--
from php://memory: the data; the others ran meanwhile
from a plain file: the data; the others ran meanwhile
