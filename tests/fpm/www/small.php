<?php
// A small page with a few coroutines, for the memory check.
use function Async\{spawn, await, delay};

$cs = [];
for ($i = 0; $i < 5; $i++) {
    $cs[] = spawn(fn() => str_repeat('x', 100) . $i);
}
$n = 0;
foreach ($cs as $c) { $n += strlen(await($c)); }
delay(0);
echo $n, "\n";
