--TEST--
C18: a PHP process whose STDIN is a pipe fed slowly reads it with fgets(STDIN) in a coroutine while its other coroutines keep running; STDOUT and STDERR writes go through as well
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$child = __DIR__ . '/012-child.php';
file_put_contents($child, <<<'PHP'
<?php
$ticks = 0;
$done = false;
$ticker = Async\spawn(function () use (&$ticks, &$done) {
    while (!$done) {
        Async\delay(10);
        $ticks++;
    }
});
fwrite(STDOUT, "ready\n");
$lines = [];
while (($line = fgets(STDIN)) !== false) {
    $lines[] = rtrim($line);
}
$done = true;
Async\await($ticker);
fwrite(STDOUT, json_encode(['lines' => $lines, 'ticks' => $ticks]) . "\n");
fwrite(STDERR, "to stderr\n");
PHP);
$php = getenv('TEST_PHP_EXECUTABLE');
$args = getenv('TEST_PHP_EXTRA_ARGS');
$p = proc_open("$php $args " . escapeshellarg($child), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
var_dump(fgets($pipes[1]));
foreach (['one', 'two', 'three'] as $word) {
    usleep(150000);
    fwrite($pipes[0], "$word\n");
}
fclose($pipes[0]);
$out = json_decode(stream_get_contents($pipes[1]), true);
$err = stream_get_contents($pipes[2]);
proc_close($p);
var_dump($out['lines'], $err);
echo "the child's ticker ran while it waited for STDIN: ", $out['ticks'] >= 10 ? "yes" : "no ({$out['ticks']})", "\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/012-child.php'); ?>
--EXPECT--
string(6) "ready
"
array(3) {
  [0]=>
  string(3) "one"
  [1]=>
  string(3) "two"
  [2]=>
  string(5) "three"
}
string(10) "to stderr
"
the child's ticker ran while it waited for STDIN: yes
