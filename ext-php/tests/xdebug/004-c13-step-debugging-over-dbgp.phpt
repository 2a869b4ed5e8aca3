--TEST--
Rule C13: step debugging over DBGp (a client of our own on 127.0.0.1): breaks inside two coroutines show only their own frames and variables, step_over across suspend() and await() stays in the coroutine (Xdebug 3.3+; 3.2 stops at the same depth in the coroutine that runs next, showing only its frames), step_over across await() in the main flow lands on its next line, run continues
--SKIPIF--
<?php
exec(escapeshellarg(getenv('TEST_PHP_EXECUTABLE')) . ' -n -d zend_extension=xdebug.so -r "echo phpversion(\'xdebug\');" 2>/dev/null', $out);
if (!preg_match('/^3\./', $out[0] ?? '')) die('skip Xdebug 3 (php8.2-xdebug) is not installed');
?>
--INI--
; PCRE's JIT reads past the end of a subject in 16-byte loads, which
; valgrind reports (the client parses every answer with preg_match).
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/dbgp.inc';

$child = __DIR__ . '/004-child.php';
file_put_contents($child, <<<'PHP'
<?php
use function Async\{spawn, await, suspend};

function work(string $name, int $n, ?Async\Coroutine $after = null): int {
    if ($after) await($after);
    $x = $n * 10;
    suspend();
    $y = $x + 1;
    $z = await(spawn(fn() => strlen($name)));
    return $y + $z;
}
$a = spawn(fn() => work("a", 1));
$b = spawn(fn() => work("bb", 2, $a));
suspend();
$sum = await($a) + await($b);
echo "sum $sum\n";
PHP);
$uri = 'file://' . $child;
$c = new DbgpClient($child);
$version = DbgpClient::attrs($c->init, 'engine')['version'] ?? '?';
$strict = version_compare($version, '3.3.0', '>=');
$bp = fn(int $line, string $name) => $c->command("breakpoint_set -t conditional -f $uri -n $line", "\$name === '$name'");

// A break inside coroutine a: its frames only, its variables (b waits for
// a to end before its own work).
$bp(6, 'a');
echo "run: ", DbgpClient::where($c->command('run')), "\n";
echo "  stack: ", implode(' < ', $c->stack()), "\n";
echo "  \$name=", $c->value('$name'), "\n";
echo "step_over: ", DbgpClient::where($c->command('step_over')), "\n";

// Across suspend(): b and the main flow run meanwhile.
$r = $c->command('step_over');
$stack = $c->stack();
if ($strict) {
    $ok = DbgpClient::where($r) === 'break 004-child.php:8' && $c->value('$name') === 'a';
} else {
    // Xdebug 3.2 compares depths only (its issue #2188, fixed in 3.3.0): it
    // stops at the first statement no deeper than where the step began, in
    // whichever coroutine runs: b's closure, whose stack has only its own
    // frames. A breakpoint then brings the debugger back into a.
    $ok = DbgpClient::where($r) === 'break 004-child.php:13' && count($stack) === 2 && str_starts_with($stack[1], '{fiber:');
    $bp(8, 'a');
    $c->command('run');
}
echo "step_over across suspend(): ", $ok ? "ok" : "wrong: " . DbgpClient::where($r) . ' ' . implode(' < ', $stack), "\n";
echo "  in a again: \$x=", $c->value('$x'), " \$name=", $c->value('$name'), "\n";
echo "step_over: ", DbgpClient::where($c->command('step_over')), "\n";

// Across await() of a new coroutine.
$r = $c->command('step_over');
$stack = $c->stack();
if ($strict) {
    $ok = DbgpClient::where($r) === 'break 004-child.php:10' && $c->value('$name') === 'a';
} else {
    // The awaited coroutine's arrow function, with its own frames only.
    $ok = DbgpClient::where($r) === 'break 004-child.php:9' && count($stack) === 2 && str_starts_with($stack[0], '{closure:');
    $bp(10, 'a');
    $c->command('run');
}
echo "step_over across await(): ", $ok ? "ok" : "wrong: " . DbgpClient::where($r) . ' ' . implode(' < ', $stack), "\n";
echo "  \$y=", $c->value('$y'), " \$z=", $c->value('$z'), "\n";

// A break inside coroutine b.
$c->command("breakpoint_set -t conditional -f $uri -n 9", "isset(\$y) && \$name === 'bb'");
echo "run: ", DbgpClient::where($c->command('run')), "\n";
echo "  stack: ", implode(' < ', $c->stack()), "\n";
echo "  \$name=", $c->value('$name'), " \$y=", $c->value('$y'), "\n";

// The main flow, then the end.
$c->command("breakpoint_set -t line -f $uri -n 16");
echo "run: ", DbgpClient::where($c->command('run')), "\n";
echo "  stack: ", implode(' < ', $c->stack()), "\n";
echo "run: ", DbgpClient::where($c->command('run')), "\n";
echo $c->close();

// The main flow steps over an await() while a coroutine runs.
file_put_contents($child, <<<'PHP'
<?php
function compute(int $n): int { $s = 0; for ($i = 0; $i < $n; $i++) { $s += $i; Async\suspend(); } return $s; }
$co = Async\spawn(fn() => compute(3));
$r = Async\await($co);
echo "r=$r\n";
PHP);
$c = new DbgpClient($child);
$c->command("breakpoint_set -t line -f $uri -n 4");
echo "main run: ", DbgpClient::where($c->command('run')), "\n";
echo "main step_over across await(): ", DbgpClient::where($c->command('step_over')), " \$r=", $c->value('$r'), "\n";
echo "  stack: ", implode(' < ', $c->stack()), "\n";
echo "run: ", DbgpClient::where($c->command('run')), "\n";
echo $c->close();
?>
--CLEAN--
<?php @unlink(__DIR__ . '/004-child.php'); ?>
--EXPECTF--
run: break 004-child.php:6
  stack: work@004-child.php:6 < {closure:%s004-child.php:12-12}@004-child.php:12 < {fiber:%s}@004-child.php:0
  $name=a
step_over: break 004-child.php:7
step_over across suspend(): ok
  in a again: $x=10 $name=a
step_over: break 004-child.php:9
step_over across await(): ok
  $y=11 $z=1
run: break 004-child.php:9
  stack: work@004-child.php:9 < {closure:%s004-child.php:13-13}@004-child.php:13 < {fiber:%s}@004-child.php:0
  $name=bb $y=21
run: break 004-child.php:16
  stack: {main}@004-child.php:16
run: stopping
sum 35
main run: break 004-child.php:4
main step_over across await(): break 004-child.php:5 $r=3
  stack: {main}@004-child.php:5
run: stopping
r=3
