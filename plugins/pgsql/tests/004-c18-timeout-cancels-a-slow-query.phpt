--TEST--
C18: a query timeout through Async\timeout(): await() gives up after 100 ms, cancelling the query's coroutine cancels the query on the server, for pg_query and PDO, and both connections stay usable
--EXTENSIONS--
pgsql
pdo
pdo_pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

$c = pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW);
$db = pdo_pgsql();

function with_timeout(callable $query, int $ms): string
{
    $start = hrtime(true);
    $co = Async\spawn($query);
    try {
        return Async\await($co, Async\timeout($ms));
    } catch (Async\AwaitCancelledException $e) {
        $co->cancel();
        try {
            Async\await($co);
        } catch (Throwable $e) {
            echo "the query's coroutine ended with ", get_class($e), "\n";
        }
        $s = (hrtime(true) - $start) / 1e9;
        return "timed out" . ($s < 4 * services_time_scale() ? "" : " only after $s s");
    }
}

$r = with_timeout(function () use ($c) {
    $r = pg_query($c, "SELECT pg_sleep(5)");
    echo "pg_query gave ", var_export($r, true), "\n";
    return "done";
}, (int) (100 * services_time_scale()));
echo "pg_query: $r\n";
echo "then: ", pg_fetch_result(pg_query($c, "SELECT 'usable'"), 0, 0), "\n";

$r = with_timeout(function () use ($db) {
    try {
        $db->query("SELECT pg_sleep(5)");
    } catch (PDOException $e) {
        echo "PDO threw ", $e->getMessage(), "\n";
    }
    return "done";
}, (int) (100 * services_time_scale()));
echo "PDO: $r\n";
echo "then: ", $db->query("SELECT 'usable'")->fetchColumn(), "\n";

echo "fast query: ", with_timeout(fn() => pg_fetch_result(pg_query($c, "SELECT 'in time'"), 0, 0), 2000), "\n";
?>
--EXPECTF--

Warning: pg_query(): Query failed: ERROR:  canceling statement due to user request in %s on line %d
pg_query gave false
the query's coroutine ended with Async\CancellationError
pg_query: timed out
then: usable
PDO threw SQLSTATE[57014]: Query canceled: 7 ERROR:  canceling statement due to user request
the query's coroutine ended with Async\CancellationError
PDO: timed out
then: usable
fast query: in time
