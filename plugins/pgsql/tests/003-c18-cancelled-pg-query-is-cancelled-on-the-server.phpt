--TEST--
C18: cancelling a coroutine in pg_query() cancels the query on the server (PQcancel), the call fails as a failed query does, the cancellation is thrown at the next suspension, and the connection stays in sync
--EXTENSIONS--
pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

$c = pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW);
$admin = pg_admin();
$pid = pg_get_pid($c);

$co = Async\spawn(function () use ($c) {
    $t = hrtime(true);
    $r = pg_query($c, "SELECT pg_sleep(5)");
    $s = (hrtime(true) - $t) / 1e9;
    echo "pg_query returned ", var_export($r, true), $s < 4 * services_time_scale() ? " early" : " after $s s", "\n";
    echo "pg_last_error: ", pg_last_error($c), "\n";
    try {
        Async\delay(1);
        echo "not cancelled\n";
    } catch (Async\CancellationError $e) {
        echo "next suspension throws ", get_class($e), "\n";
        throw $e;
    }
});
Async\delay(100);
echo "running on the server: ", pg_running($admin, $pid), "\n";
$co->cancel();
try {
    Async\await($co);
} catch (Async\CancellationError $e) {
    echo "the coroutine ended cancelled\n";
}
echo "running on the server after: '", pg_running($admin, $pid), "'\n";
var_dump(pg_fetch_all(pg_query($c, "SELECT 42 AS answer")));
var_dump(pg_transaction_status($c) === PGSQL_TRANSACTION_IDLE);

/* The same inside a transaction: it is aborted, as after any failed query. */
pg_query($c, "BEGIN");
$co = Async\spawn(fn() => pg_query($c, "SELECT pg_sleep(5)"));
Async\delay(100);
$co->cancel();
try {
    Async\await($co);
} catch (Async\CancellationError $e) {
}
var_dump(pg_transaction_status($c) === PGSQL_TRANSACTION_INERROR);
pg_query($c, "ROLLBACK");
var_dump(pg_fetch_result(pg_query($c, "SELECT 'in sync'"), 0, 0));
?>
--EXPECTF--
running on the server: SELECT pg_sleep(5)

Warning: pg_query(): Query failed: ERROR:  canceling statement due to user request in %s on line %d
pg_query returned false early
pg_last_error: ERROR:  canceling statement due to user request
next suspension throws Async\CancellationError
the coroutine ended cancelled
running on the server after: ''
array(1) {
  [0]=>
  array(1) {
    ["answer"]=>
    string(2) "42"
  }
}
bool(true)

Warning: pg_query(): Query failed: ERROR:  canceling statement due to user request in %s on line %d
bool(true)
string(7) "in sync"
