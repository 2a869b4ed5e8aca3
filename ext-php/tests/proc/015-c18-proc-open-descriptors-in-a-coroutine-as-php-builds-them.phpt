--TEST--
C18: proc_open() in a coroutine (started without a fork) gives every descriptor kind exactly as PHP does: pipes both ways, 'socket', 'null', 'redirect', 'file' read and append, a stream resource, a high descriptor number; the streams' types, modes and blocking state are PHP's
--FILE--
<?php
// The expected output is what PHP 8.2 prints without the extension: this
// file run with php -n prints exactly it (proc_open outside a coroutine).
require __DIR__ . '/proc-open-cases.inc';

$dir = sys_get_temp_dir() . '/async-proc-015-' . getmypid();
mkdir($dir);
file_put_contents("$dir/in", "file input\n");
file_put_contents("$dir/out", "first line\n");
$res = fopen("$dir/res", 'w');
run([
    'string command, stdout and stderr pipes' => fn(&$p) => proc_open('echo out; echo err >&2', [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $p),
    'array command, stdin and stdout pipes' => function (&$p) {
        $r = proc_open(['tr', 'a-z', 'A-Z'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $p);
        fwrite($p[0], "to upper\n");
        fclose($p[0]);
        unset($p[0]);
        return $r;
    },
    'null, socket, redirect to an earlier entry, a pipe the child reads on 5' => function (&$p) {
        $r = proc_open('cat; echo "via 4" >&4; echo "on the socket" >&3; read line <&5; echo "5 gave: $line"',
            [0 => ['null'], 1 => ['pipe', 'w'], 3 => ['socket'], 4 => ['redirect', 1], 5 => ['pipe', 'r']], $p);
        fwrite($p[5], "written on 5\n");
        fclose($p[5]);
        unset($p[5]);
        return $r;
    },
    'stderr redirected to the stdout pipe' => fn(&$p) => proc_open('echo "to 2" >&2', [1 => ['pipe', 'w'], 2 => ['redirect', 1]], $p),
    "files: read 'r' on 0, append 'a' on 3" => fn(&$p) => proc_open('cat; echo appended >&3',
        [0 => ['file', "$dir/in", 'r'], 1 => ['pipe', 'w'], 3 => ['file', "$dir/out", 'a']], $p),
    'a stream resource on 1' => fn(&$p) => proc_open('echo "to the resource"', [1 => $res], $p),
    'a high descriptor number' => fn(&$p) => proc_open('echo "on 9" >&9', [9 => ['pipe', 'w']], $p),
]);
fclose($res);
echo "out: ", json_encode(file_get_contents("$dir/out")), "\n";
echo "res: ", json_encode(file_get_contents("$dir/res")), "\n";
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECTF--
== string command, stdout and stderr pipes
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
pipe 2: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "out\n"
[2] "err\n"
exit 0
== array command, stdin and stdout pipes
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "TO UPPER\n"
exit 0
== null, socket, redirect to an earlier entry, a pipe the child reads on 5
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
pipe 3: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"generic_socket","mode":"r+","unread_bytes":0,"seekable":false}
[1] "via 4\n5 gave: written on 5\n"
[3] "on the socket\n"
exit 0
== stderr redirected to the stdout pipe
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "to 2\n"
exit 0
== files: read 'r' on 0, append 'a' on 3
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "file input\n"
exit 0
== a stream resource on 1
process
exit 0
== a high descriptor number
process
pipe 9: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[9] "on 9\n"
exit 0
out: "first line\nappended\n"
res: "to the resource\n"
