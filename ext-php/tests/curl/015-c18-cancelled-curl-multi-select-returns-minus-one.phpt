--TEST--
C18: a coroutine cancelled in curl_multi_select() gets -1 (its failure value) and the CancellationError at its next suspension; the transfers stay in the multi handle and another coroutine finishes them
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$mh = curl_multi_init();
$ch = curl_init(services_url('http', '/delay?s=0.5'));
curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
curl_multi_add_handle($mh, $ch);

$waiter = Async\spawn(function () use ($mh) {
    curl_multi_exec($mh, $active);
    $start = hrtime(true);
    do {
        $r = curl_multi_select($mh, 5.0);
    } while ($r === 0);
    $ms = (hrtime(true) - $start) / 1e6;
    echo "curl_multi_select returned $r, at once: ", $ms < 400 * services_time_scale() ? "yes" : "no ($ms ms)", "\n";
    try {
        usleep(1000);
        echo "not reached\n";
    } catch (Async\CancellationError $e) {
        echo "the next suspension throws ", get_class($e), "\n";
    }
});
Async\delay(100);
$waiter->cancel();
try {
    Async\await($waiter);
} catch (Async\CancellationError $e) {
    echo "waiter cancelled\n";
}

$finisher = Async\spawn(function () use ($mh, $ch) {
    do {
        curl_multi_exec($mh, $active);
        if ($active) {
            curl_multi_select($mh);
        }
    } while ($active);
    $info = curl_multi_info_read($mh);
    return $info['result'] . ' ' . trim(curl_multi_getcontent($ch));
});
echo "finished by another coroutine: ", Async\await($finisher), "\n";

// A loop that polls without waiting (timeout 0) passes through the
// scheduler at every call, so it can be cancelled too.
$ch = curl_init(services_url('http', '/delay?s=0.5'));
curl_multi_add_handle($mh, $ch);
$poller = Async\spawn(function () use ($mh) {
    curl_multi_exec($mh, $active);
    do {
        $r = curl_multi_select($mh, 0.0);
    } while ($r === 0);
    echo "polling curl_multi_select returned $r\n";
    try {
        Async\delay(1);
        echo "not reached\n";
    } catch (Async\CancellationError $e) {
        echo "the next suspension throws ", get_class($e), "\n";
    }
});
Async\delay(50);
$poller->cancel();
try {
    Async\await($poller);
} catch (Async\CancellationError $e) {
    echo "poller cancelled\n";
}
?>
--EXPECT--
curl_multi_select returned -1, at once: yes
the next suspension throws Async\CancellationError
waiter cancelled
finished by another coroutine: 0 slept 0.5
polling curl_multi_select returned -1
the next suspension throws Async\CancellationError
poller cancelled
