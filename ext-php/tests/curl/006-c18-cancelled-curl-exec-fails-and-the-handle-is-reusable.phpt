--TEST--
C18: a coroutine cancelled in curl_exec() aborts the transfer at once: curl_exec() returns false with CURLE_ABORTED_BY_CALLBACK, the next suspension throws, and the handle works again
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

use function Async\await;
use function Async\spawn;

$scale = services_time_scale();
$ch = curl_init(services_url('http', '/delay?s=' . 3 * $scale));
curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);

$transfer = spawn(function () use ($ch) {
    $start = hrtime(true);
    $r = curl_exec($ch);
    $ms = (hrtime(true) - $start) / 1e6;
    echo "curl_exec returned "; var_dump($r);
    echo "curl_errno: ", curl_errno($ch) === CURLE_ABORTED_BY_CALLBACK ? "CURLE_ABORTED_BY_CALLBACK" : curl_errno($ch), "\n";
    echo "curl_error: ", curl_error($ch), "\n";
    echo "aborted at once: ", $ms < 2000 * services_time_scale() ? "yes" : "no ($ms ms)", "\n";
    try {
        Async\suspend();
        echo "not reached\n";
    } catch (Async\CancellationError $e) {
        echo "the next suspension throws ", get_class($e), "\n";
        throw $e;
    }
});

// The caller gives up after 100 ms (await() with a timeout), then cancels.
try {
    await($transfer, Async\timeout((int) (100 * $scale)));
} catch (Async\AwaitCancelledException $e) {
    echo "await timed out, cancelling\n";
    $transfer->cancel();
}
try {
    await($transfer);
} catch (Async\CancellationError $e) {
    echo "transfer coroutine cancelled\n";
}

// The handle is reusable, in a coroutine and in the main flow.
curl_setopt($ch, CURLOPT_URL, services_url('http', '/hello'));
var_dump(await(spawn(fn() => curl_exec($ch))), curl_errno($ch), curl_error($ch));
var_dump(curl_exec($ch));
?>
--EXPECT--
await timed out, cancelling
curl_exec returned bool(false)
curl_errno: CURLE_ABORTED_BY_CALLBACK
curl_error: Transfer aborted: the coroutine was cancelled
aborted at once: yes
the next suspension throws Async\CancellationError
transfer coroutine cancelled
string(6) "hello
"
int(0)
string(0) ""
string(6) "hello
"
