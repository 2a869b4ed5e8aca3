--TEST--
Rule C13: Xdebug's error report for a warning inside a coroutine lists only that coroutine's frames, the frames inside a Fiber only the fiber's
--EXTENSIONS--
xdebug
--INI--
xdebug.mode=develop
html_errors=0
--FILE--
<?php
use function Async\{spawn, await, suspend};

function deep(int $n) {
    if ($n > 0) { deep($n - 1); return; }
    suspend();
    trigger_error("in a coroutine", E_USER_WARNING);
}
$a = spawn(fn() => deep(2));
$b = spawn(function () {
    $f = new Fiber(fn() => deep(0));
    $f->start();
});
await($a);
await($b);
?>
--EXPECTF--
Warning: in a coroutine in %s on line 7

Call Stack:
%w%f%w%d   1. {fiber:%s}() %s:9
%w%f%w%d   2. {closure:%s:9-9}() %s:0
%w%f%w%d   3. deep($n = 2) %s:9
%w%f%w%d   4. deep($n = 1) %s:5
%w%f%w%d   5. deep($n = 0) %s:5
%w%f%w%d   6. trigger_error($message = 'in a coroutine', $error_level = 512) %s:7


Warning: in a coroutine in %s on line 7

Call Stack:
%w%f%w%d   1. {fiber:%s}() %s:12
%w%f%w%d   2. {closure:%s:11-11}() %s:12
%w%f%w%d   3. deep($n = 0) %s:11
%w%f%w%d   4. trigger_error($message = 'in a coroutine', $error_level = 512) %s:7
