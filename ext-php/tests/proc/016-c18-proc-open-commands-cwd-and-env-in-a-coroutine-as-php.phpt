--TEST--
C18: proc_open() in a coroutine runs string commands through /bin/sh and array commands with execvp()'s search (of env's PATH), in cwd (ignored when it cannot be entered), with env or the inherited environment, exactly as PHP does; proc_get_status and proc_terminate work on its handle
--FILE--
<?php
// The expected output is what PHP 8.2 prints without the extension: this
// file run with php -n prints exactly it (proc_open outside a coroutine).
require __DIR__ . '/proc-open-cases.inc';

$dir = sys_get_temp_dir() . '/async-proc-016-' . getmypid();
mkdir("$dir/bin", 0777, true);
file_put_contents("$dir/bin/tool", "#!/bin/sh\necho \"tool in \$(pwd) with \$1\"\n");
chmod("$dir/bin/tool", 0755);
putenv('ASYNC_PROC_016=inherited');
run([
    'a string goes through /bin/sh -c' => fn(&$p) => proc_open('echo $((6 * 7)) "$ASYNC_PROC_016"', [1 => ['pipe', 'w']], $p),
    'an array is the argv, no shell' => fn(&$p) => proc_open(['printf', '%s|', 'a b', '$HOME', "'", '*'], [1 => ['pipe', 'w']], $p),
    'cwd' => fn(&$p) => proc_open('pwd', [1 => ['pipe', 'w']], $p, "$dir/bin"),
    'a relative program resolved in cwd' => fn(&$p) => proc_open(['./tool', 'x'], [1 => ['pipe', 'w']], $p, "$dir/bin"),
    'a cwd that does not exist is ignored, as by PHP' => fn(&$p) => proc_open('pwd >/dev/null && echo ran', [1 => ['pipe', 'w']], $p, "$dir/missing"),
    'env replaces the environment, in its order' => fn(&$p) => proc_open(['env'], [1 => ['pipe', 'w']], $p, null,
        ['ONE' => 'b', 5 => 'TWO=y', 'EMPTY' => '', '' => 'THREE=1', 'FOUR' => 12]),
    'an empty env' => fn(&$p) => proc_open(['env'], [1 => ['pipe', 'w']], $p, null, []),
    "the program is searched in env's PATH" => fn(&$p) => proc_open(['tool', 'y'], [1 => ['pipe', 'w']], $p, $dir, ['PATH' => "/nonexistent:$dir/bin"]),
    'null env inherits' => fn(&$p) => proc_open(['sh', '-c', 'echo "$ASYNC_PROC_016"'], [1 => ['pipe', 'w']], $p, null, null),
    'the options are Windows-only and ignored, as by PHP' => fn(&$p) => proc_open(
        'test "$(cut -d" " -f5 /proc/$$/stat)" = "$(cut -d" " -f5 /proc/$PPID/stat)" && echo same process group', [1 => ['pipe', 'w']], $p, null, null,
        ['create_process_group' => true, 'bypass_shell' => true, 'blocking_pipes' => true, 'suppress_errors' => true]),
    'exit code' => fn(&$p) => proc_open('exit 7', [], $p),
    'proc_get_status' => function (&$p) {
        $r = proc_open(['sleep', '0.2'], [], $p);
        $s = proc_get_status($r);
        echo $s['running'] ? "running" : "not running", ", command ", $s['command'], "\n";
        return $r;
    },
    'proc_terminate' => function (&$p) {
        $r = proc_open(['sleep', '10'], [], $p);
        var_dump(proc_terminate($r));
        return $r;
    },
]);
array_map('unlink', glob("$dir/bin/*"));
rmdir("$dir/bin");
rmdir($dir);
?>
--EXPECTF--
== a string goes through /bin/sh -c
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "42 inherited\n"
exit 0
== an array is the argv, no shell
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "a b|$HOME|'|*|"
exit 0
== cwd
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "%s\/bin\n"
exit 0
== a relative program resolved in cwd
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "tool in %s\/bin with x\n"
exit 0
== a cwd that does not exist is ignored, as by PHP
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "ran\n"
exit 0
== env replaces the environment, in its order
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "ONE=b\nTWO=y\nTHREE=1\nFOUR=12\n"
exit 0
== an empty env
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] ""
exit 0
== the program is searched in env's PATH
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "tool in %s with y\n"
exit 0
== null env inherits
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "inherited\n"
exit 0
== the options are Windows-only and ignored, as by PHP
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "same process group\n"
exit 0
== exit code
process
exit 7
== proc_get_status
running, command sleep
process
exit 0
== proc_terminate
bool(true)
process
exit 15
