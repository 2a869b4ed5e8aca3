--TEST--
C18: one multi handle shared by eight coroutines, each adding its transfer and ticking the handle as Guzzle's CurlMultiHandler does, overlaps all transfers
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

/* The loop of GuzzleHttp\Handler\CurlMultiHandler::tick()/execute(), in
 * short: every waiter ticks the shared handle until its own transfer is
 * done, whoever's tick finished it. */
final class SharedMulti
{
    public $mh;
    public int $active = 0;
    public array $done = [];
    public int $ticks = 0;

    public function __construct()
    {
        $this->mh = curl_multi_init();
    }

    public function tick(): void
    {
        $this->ticks++;
        if ($this->active && curl_multi_select($this->mh, 1.0) === -1) {
            usleep(250);
        }
        while (curl_multi_exec($this->mh, $this->active) === CURLM_CALL_MULTI_PERFORM);
        while ($info = curl_multi_info_read($this->mh)) {
            $this->done[spl_object_id($info['handle'])] = $info['result'];
            curl_multi_remove_handle($this->mh, $info['handle']);
        }
    }

    public function fetch(string $url): string
    {
        $ch = curl_init($url);
        curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
        curl_multi_add_handle($this->mh, $ch);
        $id = spl_object_id($ch);
        while (!isset($this->done[$id])) {
            $this->tick();
        }
        return $this->done[$id] . ' ' . trim(curl_multi_getcontent($ch));
    }
}

$shared = new SharedMulti();
$ticker = new StallTicker();
$start = hrtime(true);
$coroutines = [];
for ($i = 0; $i < 8; $i++) {
    $coroutines[] = Async\spawn(function () use ($shared, $i) {
        // Staggered: transfers join the handle while others wait in it.
        Async\delay(20 * $i);
        return $shared->fetch(services_url('http', '/delay?s=0.2'));
    });
}
$results = Async\await_all_or_fail($coroutines);
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
$scale = services_time_scale();

echo "results: ", implode('|', array_unique($results)), " x", count($results), "\n";
// 0.14 s of staggering plus 0.2 s of transfer, where one after the other
// would take 1.6 s.
echo "overlapped: ", $elapsed < 0.9 * $scale ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * $scale ? "yes" : "no ($stall ms)", "\n";
// A waiter wakes for what concerns it, not in a busy loop.
echo "ticks reasonable: ", $shared->ticks < 400 ? "yes" : "no ({$shared->ticks})", "\n";
?>
--EXPECT--
results: 0 slept 0.2 x8
overlapped: yes
stall below 50 ms: yes
ticks reasonable: yes
