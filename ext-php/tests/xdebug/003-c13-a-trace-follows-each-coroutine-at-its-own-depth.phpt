--TEST--
Rule C13: an Xdebug function trace follows each coroutine at its own depth: when coroutines interleave, each one's calls are indented from its own first frame, not below the frames of the coroutine that ran before
--EXTENSIONS--
xdebug
--INI--
xdebug.mode=trace
xdebug.trace_format=1
xdebug.collect_return=0
--FILE--
<?php
use function Async\{spawn, await, suspend};

function leaf(string $who) { suspend(); return $who; }
function middle(string $who) { return leaf($who); }
$file = sys_get_temp_dir() . '/async-xdebug-trace-' . getmypid();
xdebug_start_trace($file, XDEBUG_TRACE_COMPUTERIZED);
$a = spawn(fn() => middle("a"));
$b = spawn(fn() => middle("b"));
await($a);
await($b);
$trace = xdebug_stop_trace();
// Computerized format: level, function number, 0 (entry), ..., function name.
$levels = [];
foreach (file($trace) as $line) {
    $f = explode("\t", rtrim($line, "\n"));
    if (count($f) > 5 && $f[2] === '0' && in_array($f[5], ['middle', 'leaf'], true)) {
        $levels[] = "$f[5]@$f[0]";
    }
}
unlink($trace);
echo implode(" ", $levels), "\n";
?>
--EXPECT--
middle@3 leaf@4 middle@3 leaf@4
