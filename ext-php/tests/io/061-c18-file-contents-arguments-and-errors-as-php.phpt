--TEST--
Rule C18: file_get_contents() / file_put_contents() in coroutines: offsets, lengths, small files and failures as PHP gives them
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$path = sys_get_temp_dir() . "/tasync-io-" . getmypid() . "-" . mt_rand() . ".dat";
$big = str_repeat("x", 100000) . "tail!";
$calls = [
    fn() => file_put_contents($path, $big),
    fn() => strlen(file_get_contents($path, false, null, 10)),
    fn() => strlen(file_get_contents($path, false, null, 10, 70000)),
    fn() => file_get_contents($path, false, null, -5),
    fn() => file_get_contents($path, false, null, 200000),
    fn() => file_get_contents($path, false, null, -1000000),
    fn() => file_get_contents($path, false, null, 0, -1),
    fn() => file_put_contents($path, "small"),
    fn() => file_get_contents($path),
    fn() => file_put_contents($path, ["an ", "array"], LOCK_EX),
    fn() => file_get_contents($path),
    fn() => file_get_contents($path . ".missing"),
    fn() => file_put_contents(sys_get_temp_dir() . "/no-such-dir-" . getmypid() . "/file", $big),
    fn() => file_get_contents(sys_get_temp_dir()),
];
await(spawn(function () use ($calls) {
    foreach ($calls as $call) {
        try {
            var_dump($call());
        } catch (Throwable $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
}));
unlink($path);
?>
--EXPECTF--
int(100005)
int(99995)
int(70000)
string(5) "tail!"
string(0) ""

Warning: file_get_contents(): Failed to seek to position -1000000 in the stream in %s on line %d
bool(false)
ValueError: file_get_contents(): Argument #5 ($length) must be greater than or equal to 0
int(5)
string(5) "small"
int(8)
string(8) "an array"

Warning: file_get_contents(%s.missing): Failed to open stream: No such file or directory in %s on line %d
bool(false)

Warning: file_put_contents(%s/file): Failed to open stream: No such file or directory in %s on line %d
bool(false)

Notice: file_get_contents(): Read of %d bytes failed with errno=21 Is a directory in %s on line %d
string(0) ""
