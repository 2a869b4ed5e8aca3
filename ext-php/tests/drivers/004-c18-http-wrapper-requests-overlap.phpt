--TEST--
C18: ten http:// requests of 0.2 s through the stream wrapper in ten coroutines take about the time of one
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 10; $i++) {
    $coroutines[] = Async\spawn(fn() => file_get_contents(services_url('http', '/delay?s=0.2')));
}
$bodies = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();

echo "results: ", implode('|', array_unique(array_map('trim', $bodies))), " x", count($bodies), "\n";
echo "overlapped: ", $elapsed < 1.0 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECT--
results: slept 0.2 x10
overlapped: yes
stall below 50 ms: yes
