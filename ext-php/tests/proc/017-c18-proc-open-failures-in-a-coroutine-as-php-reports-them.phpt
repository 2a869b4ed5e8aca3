--TEST--
C18: proc_open() in a coroutine fails exactly as PHP does: a missing shell command exits 127, an array command that cannot run leaves PHP's child to print "Exec failed" and exit 127, bad arguments throw PHP's errors, descriptors that cannot be opened give PHP's warnings and false
--FILE--
<?php
// The expected output is what PHP 8.2 prints without the extension: this
// file run with php -n prints exactly it (proc_open outside a coroutine).
require __DIR__ . '/proc-open-cases.inc';

$dir = sys_get_temp_dir() . '/async-proc-017-' . getmypid();
mkdir($dir);
file_put_contents("$dir/exists", "");
run([
    'a shell command that does not exist' => fn(&$p) => proc_open('nonexistent-command-017', [2 => ['pipe', 'w']], $p),
    "an array command whose program does not exist: PHP's child prints the warning and exits 127" =>
        fn(&$p) => proc_open(['/nonexistent/program'], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $p),
    'one not found in PATH' => fn(&$p) => proc_open(['nonexistent-command-017'], [1 => ['pipe', 'w']], $p),
    'one that is not executable' => fn(&$p) => proc_open(["$dir/exists"], [1 => ['pipe', 'w']], $p),
    'an empty array' => fn(&$p) => proc_open([], [], $p),
    'an empty program name' => fn(&$p) => proc_open([''], [1 => ['pipe', 'w']], $p),
    'a null byte in an argument' => fn(&$p) => proc_open(['ls', "a\0b"], [], $p),
    'a string key in the spec' => fn(&$p) => proc_open('true', ['a' => ['pipe', 'r']], $p),
    'a spec that is not an array or stream' => fn(&$p) => proc_open('true', [1 => 5], $p),
    'an unknown kind' => fn(&$p) => proc_open('true', [1 => ['bogus']], $p),
    'a pipe without mode' => fn(&$p) => proc_open('true', [1 => ['pipe']], $p),
    'a file without mode' => fn(&$p) => proc_open('true', [1 => ['file', "$dir/x"]], $p),
    'a redirect to a string' => fn(&$p) => proc_open('true', [1 => ['redirect', '2']], $p),
    'a redirect to nothing' => fn(&$p) => proc_open('true', [1 => ['redirect', 7]], $p),
    'a file that cannot be opened, after a pipe' => fn(&$p) => proc_open('true', [1 => ['pipe', 'w'], 2 => ['file', "$dir/missing/x", 'r']], $p),
    "a file 'x' that exists" => fn(&$p) => proc_open('true', [1 => ['file', "$dir/exists", 'x']], $p),
    'a closed stream' => function (&$p) { $f = fopen('php://memory', 'r'); fclose($f); return proc_open('true', [1 => $f], $p); },
    '$pipes that cannot be an array' => function (&$p) {
        $o = new class { public int $pipes = 0; };
        return proc_open('true', [1 => ['pipe', 'w']], $o->pipes);
    },
]);
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECTF--
== a shell command that does not exist
process
pipe 2: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[2] "sh: 1: nonexistent-command-017: not found\n"
exit 127
== an array command whose program does not exist: PHP's child prints the warning and exits 127
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
pipe 2: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "\nWarning: proc_open(): Exec failed: No such file or directory in %s on line %d\n"
[2] ""
exit 127
== one not found in PATH
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "\nWarning: proc_open(): Exec failed: No such file or directory in %s on line %d\n"
exit 127
== one that is not executable
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "\nWarning: proc_open(): Exec failed: Permission denied in %s on line %d\n"
exit 127
== an empty array
ValueError: proc_open(): Argument #1 ($command) must have at least one element
== an empty program name
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "\nWarning: proc_open(): Exec failed: No such file or directory in %s on line %d\n"
exit 127
== a null byte in an argument
ValueError: Command array element 2 contains a null byte
== a string key in the spec
ValueError: proc_open(): Argument #2 ($descriptor_spec) must be an integer indexed array
== a spec that is not an array or stream
ValueError: proc_open(): Argument #2 ($descriptor_spec) must only contain arrays and streams
== an unknown kind

Warning: proc_open(): bogus is not a valid descriptor spec/mode in %s on line %d
bool(false)
== a pipe without mode
ValueError: Missing mode parameter for 'pipe'
== a file without mode
ValueError: Missing mode parameter for 'file'
== a redirect to a string
ValueError: Redirection target must be of type int, string given
== a redirect to nothing

Warning: proc_open(): Redirection target 7 not found in %s on line %d
bool(false)
== a file that cannot be opened, after a pipe

Warning: proc_open(%s/missing/x): Failed to open stream: No such file or directory in %s on line %d
bool(false)
== a file 'x' that exists

Warning: proc_open(%s/exists): Failed to open stream: File exists in %s on line %d
bool(false)
== a closed stream
TypeError: proc_open(): supplied resource is not a valid stream resource
== $pipes that cannot be an array
TypeError: Cannot assign array to reference held by property class@anonymous::$pipes of type int
