--TEST--
Only the administrator chooses the backend: ini_set(), a .user.ini and putenv() load no library, and a backend others may replace is refused before its code runs
--DESCRIPTION--
The probe is a working backend (core/tests/fake_backend.c, ctor-probe) whose
constructor appends a line to $TASYNC_CTOR_PROBE: if it ever runs, the mark
file exists. The .user.ini case runs php-cgi as a web server would (Debian's
php8.2-cgi; php-fpm reads .user.ini the same way). The last case loads the
probe from a safe place, so that a probe which never fires cannot pass.
--SKIPIF--
<?php
if (!getenv('TASYNC_CTOR_PROBE_SO')) die('skip the loader probe is built with the C tests (meson -Dtests=true)');
?>
--FILE--
<?php
$dir = sys_get_temp_dir() . '/tasync-info-008-' . getmypid();
@mkdir($dir, 0755);
chmod($dir, 0755);
$mark = "$dir/mark";
putenv("TASYNC_CTOR_PROBE=$mark");
$name = 'tasync-backend-' . ini_get('async.reactor') . '.so';
$probe = "$dir/$name";
copy(getenv('TASYNC_CTOR_PROBE_SO'), $probe);
chmod($probe, 0755);
$ran = function () use ($mark) {
    clearstatcache();
    $r = file_exists($mark) ? "the constructor ran" : "nothing ran";
    @unlink($mark);
    return $r;
};
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$real_dir = ini_get('async.backend_dir');
// The probe borrows the uv backend's table from $TASYNC_BACKEND_DIR.
$child = function (string $code, string $extra = '') use ($php, $args, $dir, $real_dir) {
    file_put_contents("$dir/child.php", $code);
    exec('TASYNC_BACKEND_DIR=' . escapeshellarg($real_dir) . " $php $args $extra " . escapeshellarg("$dir/child.php") . ' 2>&1', $out);
    return implode("\n", $out);
};
$report = '<?php echo Async\await(Async\spawn(fn() => "coroutines run")), "\n";
ob_start(); (new ReflectionExtension("async"))->info();
preg_match("/Backend path\\s*(?:=>\\s*)?(\\S+)/", strip_tags(ob_get_clean()), $m); echo "loaded: $m[1]\n";';

echo "1. ini_set() in the script\n";
var_dump(ini_set('async.reactor', $probe), ini_set('async.backend_dir', $dir));
echo Async\await(Async\spawn(fn() => "coroutines run")), "\n";
echo $ran(), "\n";

echo "2. putenv() before the first use\n";
$no_dir = str_replace('async.backend_dir=', 'async.unused_backend_dir=', $args);
file_put_contents("$dir/child.php", '<?php putenv("TASYNC_BACKEND_DIR=' . $dir . '");' . substr($report, 5));
exec('TASYNC_BACKEND_DIR=' . escapeshellarg($real_dir) . " $php $no_dir " . escapeshellarg("$dir/child.php") . ' 2>&1', $out2);
echo str_replace($real_dir, 'REAL', implode("\n", $out2)), "\n";
echo $ran(), "\n";

echo "3. a .user.ini read by php-cgi\n";
$cgi = null;
foreach ([dirname(PHP_BINARY) . '/php-cgi' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION, dirname(PHP_BINARY) . '/php-cgi', '/usr/bin/php-cgi'] as $c) {
    if (is_executable($c)) { $cgi = $c; break; }
}
if ($cgi === null) {
    echo "php-cgi is missing (Debian's php8.2-cgi)\n";
} else {
    @mkdir("$dir/www", 0755);
    file_put_contents("$dir/www/.user.ini", "memory_limit=77M\nasync.reactor=$probe\nasync.backend_dir=$dir\n");
    file_put_contents("$dir/www/index.php", '<?php echo "memory_limit ", ini_get("memory_limit"), "\n";' . substr($report, 5));
    $env = 'DOCUMENT_ROOT=' . escapeshellarg("$dir/www") . ' SCRIPT_FILENAME=' . escapeshellarg("$dir/www/index.php")
        . ' PATH_TRANSLATED=' . escapeshellarg("$dir/www/index.php") . ' REDIRECT_STATUS=200 GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET';
    exec("$env $cgi $args 2>&1", $out3);
    $body = array_slice($out3, array_search('', $out3, true) + 1);   // after the CGI headers
    echo str_replace($real_dir, 'REAL', implode("\n", $body)), "\n";
    echo $ran(), "\n";
}

echo "4. php.ini names a backend in a directory anyone may write to\n";
chmod($dir, 0777);
echo str_replace([$dir, $real_dir], ['DIR', 'REAL'], $child($report, '-d async.reactor=' . escapeshellarg($probe))), "\n";
echo $ran(), "\n";

echo "5. php.ini names a backend file anyone may write to\n";
chmod($dir, 0755);
chmod($probe, 0666);
echo str_replace([$dir, $real_dir], ['DIR', 'REAL'], $child($report, '-d async.reactor=' . escapeshellarg($probe))), "\n";
echo $ran(), "\n";

echo "6. the same file, once only its owner may write it\n";
chmod($probe, 0644);
echo str_replace([$dir, $real_dir], ['DIR', 'REAL'], $child($report, '-d async.reactor=' . escapeshellarg($probe))), "\n";
echo $ran(), "\n";
?>
--CLEAN--
<?php
$dir = sys_get_temp_dir() . '/tasync-info-008-';
foreach (glob("$dir*") as $d) {
    foreach (['www/.user.ini', 'www/index.php'] as $f) @unlink("$d/$f");
    @rmdir("$d/www");
    foreach (glob("$d/*") as $f) @unlink($f);
    @rmdir($d);
}
?>
--EXPECTF--
1. ini_set() in the script
bool(false)
bool(false)
coroutines run
nothing ran
2. putenv() before the first use
coroutines run
loaded: REAL/tasync-backend-%s.so
nothing ran
3. a .user.ini read by php-cgi
memory_limit 77M
coroutines run
loaded: REAL/tasync-backend-%s.so
nothing ran
4. php.ini names a backend in a directory anyone may write to

Warning: refused to load backend '%s' (DIR/tasync-backend-%s.so): the directory DIR is writable by others than its owner (mode 777), so anyone could replace the code it runs; using the default backend 'uv' instead in %s on line 1
coroutines run
loaded: REAL/tasync-backend-uv.so
nothing ran
5. php.ini names a backend file anyone may write to

Warning: refused to load backend '%s' (DIR/tasync-backend-%s.so): the file DIR/tasync-backend-%s.so is writable by others than its owner (mode 666), so anyone could replace the code it runs; using the default backend 'uv' instead in %s on line 1
coroutines run
loaded: REAL/tasync-backend-uv.so
nothing ran
6. the same file, once only its owner may write it
coroutines run
loaded: DIR/tasync-backend-%s.so
the constructor ran
