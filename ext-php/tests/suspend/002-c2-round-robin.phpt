--TEST--
Rule C2: suspend() hands over to the next coroutine in FIFO order
--FILE--
<?php
$log = [];
foreach (['a', 'b', 'c'] as $name) {
    Async\spawn(function () use ($name, &$log) {
        for ($i = 0; $i < 3; $i++) { $log[] = "$name$i"; Async\suspend(); }
    });
}
Async\suspend();
$log[] = 'main';
Async\suspend();
$log[] = 'main';
echo implode(' ', $log), "\n";
?>
--EXPECT--
a0 b0 c0 main a1 b1 c1 main
