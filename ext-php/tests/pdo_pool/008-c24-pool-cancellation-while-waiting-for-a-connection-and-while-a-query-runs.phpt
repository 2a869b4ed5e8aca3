--TEST--
PDO pool: a coroutine cancelled while it waits for a connection (directly, or after an Async\timeout() ran out on its awaiter) ends with the cancellation and leaves the queue; one cancelled while its query runs ends with it too, its connection is replaced, and the pool serves the next borrower
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/pdo_pool.inc';

$pdo = pool_mysql([PDO::ATTR_POOL_MAX => 1]);
$holder = Async\spawn(function () use ($pdo) {
    $pdo->query('SELECT SLEEP(0.3)');
    return (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn();
});
Async\delay(50);
$waiter = Async\spawn(function () use ($pdo) {
    $pdo->query('SELECT 1');
    echo "waiter: not reached\n";
});
$timed = Async\spawn(function () use ($pdo) {
    $pdo->query('SELECT 1');
    echo "timed: not reached\n";
});
Async\delay(20);
$waiter->cancel();
try {
    Async\await($waiter);
} catch (Async\CancellationError $e) {
    echo "waiter: ", get_class($e), "\n";
}
try {
    Async\await($timed, Async\timeout(50));
} catch (Async\AwaitCancelledException $e) {
    echo "await with timeout: ", get_class($e), "\n";
    $timed->cancel();
}
try {
    Async\await($timed);
} catch (Async\CancellationError $e) {
    echo "timed: ", get_class($e), "\n";
}
$holderId = Async\await($holder);

// Cancelled while its query runs.
$running = Async\spawn(function () use ($pdo) {
    $pdo->query('SELECT SLEEP(5)');
    echo "running: not reached\n";
});
Async\delay(100);
$start = hrtime(true);
$running->cancel();
try {
    Async\await($running);
} catch (Async\CancellationError $e) {
    echo "running: ", get_class($e), "\n";
}
$next = Async\spawn(function () use ($pdo) {
    return [$pdo->query('SELECT 40 + 2')->fetchColumn(), (int) $pdo->query('SELECT CONNECTION_ID()')->fetchColumn()];
});
[$answer, $nextId] = Async\await($next);
echo "next borrower: $answer\n";
echo "waited for the whole sleep: ", (hrtime(true) - $start) / 1e9 > 4 ? "yes" : "no", "\n";
?>
--EXPECT--
waiter: Async\CancellationError
await with timeout: Async\AwaitCancelledException
timed: Async\CancellationError
running: Async\CancellationError
next borrower: 42
waited for the whole sleep: no
