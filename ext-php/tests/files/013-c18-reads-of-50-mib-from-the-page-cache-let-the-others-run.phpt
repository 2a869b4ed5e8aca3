--TEST--
C18: fread(), file_get_contents() and fgets() loops reading 50 MiB of a plain file the page cache holds let the other coroutines run while they read, on every backend
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

$size = large_transfer_bytes();
$data = str_repeat(str_repeat('x', 127) . "\n", $size >> 7);
$path = sys_get_temp_dir() . '/tasync-reads-' . getmypid() . '.dat';
file_put_contents($path, $data);
file_get_contents($path); // in the page cache

Async\await(Async\spawn(function () use ($path, $data, $size) {
    $calls = [
        'fread()' => function () use ($path, $size) {
            $f = fopen($path, 'r');
            $s = fread($f, $size);
            fclose($f);
            return $s;
        },
        'file_get_contents()' => fn() => file_get_contents($path),
        'fgets() loop' => function () use ($path) {
            // Hashed as it comes: appending to one string would copy it at
            // every line under valgrind (no Zend allocator there).
            $f = fopen($path, 'r');
            $h = hash_init('md5');
            while (($line = fgets($f)) !== false) {
                hash_update($h, $line);
            }
            fclose($f);
            return hash_final($h);
        },
    ];
    $md5 = md5($data);
    foreach ($calls as $name => $call) {
        [$s, $turns] = count_turns($call);
        echo "$name: ", (strlen($s) === 32 ? $s : md5($s)) === $md5 ? "the data" : "wrong data", "; ",
            $turns >= 2 ? "the others ran meanwhile" : "the others did not run ($turns turns)", "\n";
    }
}));
unlink($path);
?>
--EXPECT--
fread(): the data; the others ran meanwhile
file_get_contents(): the data; the others ran meanwhile
fgets() loop: the data; the others ran meanwhile
