--TEST--
Rule C18: a cancelled file_get_contents() fails as a failed read (false and the notice) or, when the read won the race, returns the whole file; never a part; the cancellation is thrown next
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$path = sys_get_temp_dir() . "/tasync-io-" . getmypid() . "-" . mt_rand() . ".dat";
file_put_contents($path, str_repeat("z", 1 << 20));
$reader = spawn(function () use ($path) {
    // A backend that reads files natively (io_uring) lets an operation the
    // kernel started complete and keeps its result; on the thread pool the
    // read is cut short and fails with the plain wrapper's notice.
    $r = @file_get_contents($path);
    if ($r === false) {
        $notice = error_get_last()['message'] ?? '';
        echo "false, ", str_contains($notice, "failed with errno=125 Operation canceled") ? "with the failed-read notice" : "without it", "\n";
    } else {
        echo strlen($r) === (1 << 20) ? "the whole file" : "partial data", "\n";
    }
    Async\suspend();
    echo "not reached\n";
});
spawn(function () use ($reader) { $reader->cancel(); });
try {
    await($reader);
} catch (Async\CancellationError $e) {
    echo "await: cancelled\n";
}
unlink($path);
?>
--EXPECTREGEX--
(false, with the failed-read notice|the whole file)
await: cancelled
