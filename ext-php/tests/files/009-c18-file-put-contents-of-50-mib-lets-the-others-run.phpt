--TEST--
C18: file_put_contents() of 50 MiB, plain and with FILE_APPEND or LOCK_EX, lets the other coroutines run while it writes, on every backend
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

$size = large_transfer_bytes();
$data = str_repeat('0123456789abcdef', $size >> 4);
$path = sys_get_temp_dir() . '/tasync-fpc-' . getmypid() . '.dat';

Async\await(Async\spawn(function () use ($path, $data, $size) {
    foreach (['plain' => 0, 'FILE_APPEND' => FILE_APPEND, 'LOCK_EX' => LOCK_EX] as $name => $flags) {
        @unlink($path);
        [$n, $turns] = count_turns(fn() => file_put_contents($path, $data, $flags));
        echo "$name: ", $n === $size && md5_file($path) === md5($data) ? "the data" : "wrong ($n)", "; ",
            $turns >= 2 ? "the others ran meanwhile" : "the others did not run ($turns turns)", "\n";
    }
}));
unlink($path);
?>
--EXPECT--
plain: the data; the others ran meanwhile
FILE_APPEND: the data; the others ran meanwhile
LOCK_EX: the data; the others ran meanwhile
