--TEST--
C18: proc_open() in a coroutine runs an array command whose program has no #! line with /bin/sh, as execvp() in PHP's child does
--SKIPIF--
<?php
// Valgrind runs glibc's posix_spawn (CLONE_VM|CLONE_VFORK) as a plain fork,
// so the child's execve() error (ENOEXEC here) never reaches the parent.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip valgrind runs posix_spawn as a fork that cannot report exec errors');
?>
--FILE--
<?php
// The expected output is what PHP 8.2 prints without the extension: this
// file run with php -n prints exactly it (proc_open outside a coroutine).
require __DIR__ . '/proc-open-cases.inc';

$file = sys_get_temp_dir() . '/async-proc-018-' . getmypid();
file_put_contents($file, "echo \"plain script with \$1\"\n");
chmod($file, 0755);
run([
    'a script without #!' => fn(&$p) => proc_open([$file, 'z'], [1 => ['pipe', 'w']], $p),
]);
unlink($file);
?>
--EXPECT--
== a script without #!
process
pipe 1: stream {"timed_out":false,"blocked":true,"eof":false,"stream_type":"STDIO","mode":"r","unread_bytes":0,"seekable":false}
[1] "plain script with z\n"
exit 0
