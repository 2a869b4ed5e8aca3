--TEST--
Rule C15: exit() in the main flow cancels every coroutine; they run their finally blocks before the shutdown functions
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown function\n"; });
$c = Async\spawn(function () {
    try {
        Async\delay(60000);
    } finally {
        echo "coroutine: finally, cancelled: ", var_export(Async\currentCoroutine()->isCancellationRequested(), true), "\n";
    }
});
Async\suspend();
try {
    exit();
} finally {
    echo "never: exit skips the main flow's finally, as in PHP\n";
}
?>
--EXPECT--
coroutine: finally, cancelled: true
shutdown function
