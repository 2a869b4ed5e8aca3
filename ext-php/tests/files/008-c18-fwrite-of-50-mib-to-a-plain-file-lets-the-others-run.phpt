--TEST--
C18: fwrite() of 50 MiB to a plain file, in one call or in 8 KiB pieces, lets the other coroutines run while it writes, on every backend
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

$size = large_transfer_bytes();
$data = str_repeat('0123456789abcdef', $size >> 4);
$path = sys_get_temp_dir() . '/tasync-fwrite-' . getmypid() . '.dat';

Async\await(Async\spawn(function () use ($path, $data, $size) {
    [$n, $turns] = count_turns(function () use ($path, $data) {
        $f = fopen($path, 'w');
        $n = fwrite($f, $data);
        fclose($f);
        return $n;
    });
    echo "one fwrite(): ", $n === $size && md5_file($path) === md5($data) ? "the data" : "wrong ($n)", "; ",
        $turns >= 2 ? "the others ran meanwhile" : "the others did not run ($turns turns)", "\n";

    [$n, $turns] = count_turns(function () use ($path, $data, $size) {
        $f = fopen($path, 'w');
        $n = 0;
        for ($off = 0; $off < $size; $off += 8192) {
            $n += fwrite($f, substr($data, $off, 8192));
        }
        fclose($f);
        return $n;
    });
    echo "8 KiB fwrite()s: ", $n === $size && md5_file($path) === md5($data) ? "the data" : "wrong ($n)", "; ",
        $turns >= 2 ? "the others ran meanwhile" : "the others did not run ($turns turns)", "\n";
}));
unlink($path);
?>
--EXPECT--
one fwrite(): the data; the others ran meanwhile
8 KiB fwrite()s: the data; the others ran meanwhile
