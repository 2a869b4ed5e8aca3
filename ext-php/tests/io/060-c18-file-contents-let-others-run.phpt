--TEST--
Rule C18: file_put_contents() and file_get_contents() of a large plain file suspend only the calling coroutine
--DESCRIPTION--
With async.file_offload=always the transfers go through the backend even
on a local disk whose page cache holds the data (by default such reads are
served inline, see tests/files/).
--INI--
async.file_offload=always
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$path = sys_get_temp_dir() . "/tasync-io-" . getmypid() . "-" . mt_rand() . ".dat";
$data = str_repeat("0123456789abcdef", 1 << 16); // 1 MiB
$writer = spawn(function () use ($path, $data) {
    $n = file_put_contents($path, $data);
    echo "wrote $n bytes\n";
});
spawn(function () { echo "another coroutine runs during the write\n"; });
await($writer);
$reader = spawn(function () use ($path) {
    $s = file_get_contents($path);
    echo "read ", strlen($s), " bytes\n";
    return $s;
});
spawn(function () { echo "another coroutine runs during the read\n"; });
var_dump(await($reader) === $data);
var_dump(await(spawn(fn() => file_put_contents($path, $data, FILE_APPEND))), filesize($path));
var_dump(await(spawn(fn() => file_get_contents($path))) === $data . $data);
unlink($path);
?>
--EXPECT--
another coroutine runs during the write
wrote 1048576 bytes
another coroutine runs during the read
read 1048576 bytes
bool(true)
int(1048576)
int(2097152)
bool(true)
