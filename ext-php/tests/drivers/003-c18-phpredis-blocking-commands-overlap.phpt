--TEST--
C18: ten phpredis BLPOP calls in ten coroutines wait together for a push made by another coroutine 0.2 s later
--EXTENSIONS--
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('redis'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$key = 'tasync-test-' . getmypid();
$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(function () use ($i, $key) {
        $r = services_redis();
        // Blocks in the server until the pusher below pushes (at most 5 s).
        $popped = $r->blPop(["$key-$i"], 5);
        $r->close();
        return $popped;
    });
}
Async\spawn(function () use ($key) {
    $r = services_redis();
    Async\delay(200);
    for ($i = 0; $i < 10; $i++) {
        $r->lPush("$key-$i", "value $i");
    }
    $r->close();
});
$results = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();

$ok = 0;
foreach ($results as $i => $popped) {
    if ($popped === ["$key-$i", "value $i"]) {
        $ok++;
    } else {
        echo "coroutine $i got ", var_export($popped, true), "\n";
    }
}
echo "results: $ok\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
results: 10
overlapped: yes
stall below 50 ms: yes
