--TEST--
Rule C12: getTrace() shows the stack of a suspended coroutine
--FILE--
<?php
function inner() { Async\suspend(); }
function outer($x) { inner(); }
$c = Async\spawn('outer', 42);
var_dump($c->getTrace());
Async\suspend();
foreach ($c->getTrace(DEBUG_BACKTRACE_IGNORE_ARGS) as $i => $frame) {
    echo "#$i ", $frame['function'], isset($frame['line']) ? " line " . $frame['line'] : "", "\n";
}
$t = $c->getTrace(0, 1);
echo count($t), "\n";
Async\await($c);
var_dump($c->getTrace());
?>
--EXPECT--
array(0) {
}
#0 Async\suspend line 2
#1 inner line 3
#2 outer
1
array(0) {
}
