--TEST--
C18: copy() of a 50 MiB plain file (which PHP would hand to one copy_file_range() call) lets the other coroutines run while it copies, on every backend, and copies the data
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

$size = large_transfer_bytes();
$data = str_repeat('0123456789abcdef', $size >> 4);
$src = sys_get_temp_dir() . '/tasync-copy-src-' . getmypid() . '.dat';
$dst = sys_get_temp_dir() . '/tasync-copy-dst-' . getmypid() . '.dat';
file_put_contents($src, $data);

Async\await(Async\spawn(function () use ($src, $dst, $data) {
    [$ok, $turns] = count_turns(fn() => copy($src, $dst));
    echo "copy(): ", $ok && md5_file($dst) === md5($data) ? "the data" : "wrong", "; ",
        $turns >= 2 ? "the others ran meanwhile" : "the others did not run ($turns turns)", "\n";
}));
// Outside coroutines copy() is PHP's own.
unlink($dst);
var_dump(copy($src, $dst), filesize($dst) === filesize($src));
unlink($src);
unlink($dst);
?>
--EXPECT--
copy(): the data; the others ran meanwhile
bool(true)
bool(true)
