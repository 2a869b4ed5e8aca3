--TEST--
C18: with async.file_offload=always, plain-file calls in a coroutine (mkdir, rename, copy, unlink, rmdir, the stat family, file(), scandir, opendir/readdir, fopen/fgets/fread/fwrite/ftruncate/fflush/fsync/flock, readfile, file_get_contents/file_put_contents) go through the backend and give exactly what plain PHP gives, warnings included
--INI--
async.file_offload=always
; PCRE's JIT reads past the end of a subject in 16-byte loads, which
; valgrind reports: the interpreter keeps the leak check meaningful.
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

$child = __DIR__ . '/001-child.php';
file_put_contents($child, <<<'PHP'
<?php
$body = function () {
    $d = sys_get_temp_dir() . "/tasync-files-" . getmypid();
    $out = [];
    $out[] = var_export(@mkdir("$d/a/b/c", 0755, true), true);
    $out[] = var_export(mkdir("$d/a", 0755), true);   // exists: warning
    $out[] = var_export(is_dir("$d/a/b"), true);
    $out[] = var_export(file_put_contents("$d/a/f.txt", "line1\nline2\nline3\n"), true);
    $out[] = var_export(file_exists("$d/a/f.txt"), true) . var_export(file_exists("$d/nope"), true);
    $out[] = var_export(is_file("$d/a/f.txt"), true) . var_export(is_readable("$d/a/f.txt"), true) . var_export(is_writable("$d/a/f.txt"), true) . var_export(is_executable("$d/a/f.txt"), true);
    $out[] = var_export(filesize("$d/a/f.txt"), true);
    $out[] = var_export(@filesize("$d/nope"), true);
    $out[] = var_export(filesize("$d/nope"), true);
    $st = stat("$d/a/f.txt"); $out[] = $st['size'] . " " . ($st['mode'] & 0777);
    $out[] = var_export(file("$d/a/f.txt", FILE_IGNORE_NEW_LINES), true);
    $out[] = var_export(copy("$d/a/f.txt", "$d/a/g.txt"), true) . file_get_contents("$d/a/g.txt");
    $out[] = var_export(rename("$d/a/g.txt", "$d/a/h.txt"), true) . var_export(file_exists("$d/a/g.txt"), true);
    $out[] = var_export(rename("$d/a/nope", "$d/a/x"), true);
    $l = scandir("$d/a"); $out[] = implode(",", $l);
    $h = opendir("$d/a"); $n = []; while (($e = readdir($h)) !== false) $n[] = $e; closedir($h); sort($n); $out[] = implode(",", $n);
    $out[] = var_export(@opendir("$d/nope"), true);
    $out[] = var_export(opendir("$d/nope"), true);
    $f = fopen("$d/a/f.txt", "r+");
    $out[] = fgets($f) . fgets($f);
    $out[] = var_export(fwrite($f, "LINE3\n"), true);
    $out[] = var_export(fflush($f), true) . var_export(fsync($f), true) . var_export(ftruncate($f, 8), true);
    rewind($f); $out[] = var_export(stream_get_contents($f), true);
    $out[] = var_export(flock($f, LOCK_EX), true) . var_export(flock($f, LOCK_UN), true);
    fclose($f);
    $out[] = var_export(fopen("$d/nope/x", "r"), true);
    $out[] = var_export(unlink("$d/a/f.txt"), true) . var_export(unlink("$d/a/f.txt"), true);
    $out[] = var_export(rmdir("$d/a"), true);
    unlink("$d/a/h.txt"); rmdir("$d/a/b/c"); rmdir("$d/a/b");
    $out[] = var_export(rmdir("$d/a"), true) . var_export(rmdir($d), true);
    $big = str_repeat("0123456789abcdef", 100000);
    file_put_contents("$d-big.dat", $big);
    $out[] = md5(file_get_contents("$d-big.dat")) === md5($big) ? "big ok" : "big BAD";
    $f = fopen("$d-big.dat", "r"); $s = ''; while (!feof($f)) $s .= fread($f, 100000); fclose($f);
    $out[] = $s === $big ? "fread ok" : "fread BAD";
    $f = fopen("$d-big.dat", "r"); $c = 0; while (($line = fgets($f, 1000)) !== false) $c += strlen($line); fclose($f);
    $out[] = "fgets $c";
    ob_start(); readfile("$d-big.dat"); $out[] = md5(ob_get_clean()) === md5($big) ? "readfile ok" : "readfile BAD";
    unlink("$d-big.dat");
    return $out;
};
set_error_handler(function ($no, $str) { echo "warning: $str\n"; return true; });
$r = function_exists('Async\spawn') ? Async\await(Async\spawn($body)) : $body();
echo implode("\n", $r), "\n";
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$plain = shell_exec("$php -n " . escapeshellarg($child));
$async = shell_exec("$php $args -d async.file_offload=always " . escapeshellarg($child));
// The children have different pids, which name their files.
$norm = fn($s) => preg_replace('/tasync-files-\d+/', 'tasync-files-PID', $s);
echo "same output as plain PHP: ", $norm($plain) === $norm($async) ? "yes" : "no", "\n";
if ($norm($plain) !== $norm($async)) {
    echo "--- plain\n", $plain, "--- async\n", $async;
}
echo "lines compared: ", substr_count($plain, "\n") > 40 ? "yes" : "no", "\n";

// And each kind of call let another coroutine run meanwhile.
$d = sys_get_temp_dir() . '/tasync-files-see-' . getmypid();
$calls = [
    'mkdir' => fn() => mkdir($d),
    'file_put_contents' => fn() => file_put_contents("$d/f", "x\ny\n"),
    'stat' => fn() => stat("$d/f"),
    'file_exists' => fn() => file_exists("$d/f"),
    'is_dir' => fn() => is_dir($d),
    'fopen' => fn() => fopen("$d/f", 'r'),
    'fgets' => function () use ($d) { $f = fopen("$d/f", 'r'); return fgets($f); },
    'file' => fn() => file("$d/f"),
    'copy' => fn() => copy("$d/f", "$d/g"),
    'rename' => fn() => rename("$d/g", "$d/h"),
    'scandir' => fn() => scandir($d),
    'unlink' => fn() => unlink("$d/h") && unlink("$d/f"),
    'rmdir' => fn() => rmdir($d),
];
foreach ($calls as $name => $call) {
    [$result, $suspended] = run_and_see($call);
    echo "$name: ", $result !== false ? "ok" : "failed", ", ", $suspended ? "others ran meanwhile" : "inline", "\n";
}
?>
--CLEAN--
<?php @unlink(__DIR__ . '/001-child.php'); ?>
--EXPECT--
same output as plain PHP: yes
lines compared: yes
mkdir: ok, others ran meanwhile
file_put_contents: ok, others ran meanwhile
stat: ok, others ran meanwhile
file_exists: ok, others ran meanwhile
is_dir: ok, others ran meanwhile
fopen: ok, others ran meanwhile
fgets: ok, others ran meanwhile
file: ok, others ran meanwhile
copy: ok, others ran meanwhile
rename: ok, others ran meanwhile
scandir: ok, others ran meanwhile
unlink: ok, others ran meanwhile
rmdir: ok, others ran meanwhile
