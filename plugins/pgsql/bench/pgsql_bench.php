<?php
/*
 * Queries per second through async_pgsql, against baselines measured in the
 * same run (plugins/pgsql/README.md, "Measured"):
 *
 *   plain    one connection, PHP's blocking pg_query() in a loop (no
 *            runtime yet: PHP's own functions)
 *   by hand  CONNS connections driven by PHP's asynchronous API in one loop:
 *            pg_send_query(), stream_select() on pg_socket(),
 *            pg_consume_input(), pg_connection_busy(), pg_get_result()
 *   async    CONNS coroutines, each with its own connection, calling the
 *            ordinary pg_query() (cooperative through async_pgsql)
 *
 * Every mode runs the same total number of queries (SELECT $1::int, with
 * the row fetched). Environment: TASYNC_TEST_PGSQL_DSN (./dev bench starts
 * the server), BENCH_CONNS (100), BENCH_QUERIES (20000).
 *
 *   php -n -d extension=pgsql -d extension=async.so -d extension=async_pgsql.so \
 *       -d async.backend_dir=... -d async.reactor=uv plugins/pgsql/bench/pgsql_bench.php
 */
$dsn = getenv('TASYNC_TEST_PGSQL_DSN');
if ($dsn === false) {
    fwrite(STDERR, "TASYNC_TEST_PGSQL_DSN is not set (start tests/services/services.py)\n");
    exit(2);
}
$conns = (int) (getenv('BENCH_CONNS') ?: 100);
$total = (int) (getenv('BENCH_QUERIES') ?: 20000);
$per = intdiv($total, $conns);
$total = $per * $conns;
$sql = 'SELECT $1::int AS n';

function rate(int $n, float $seconds): float
{
    return $n / $seconds;
}

/* plain: one connection, blocking calls. */
$c = pg_connect($dsn, PGSQL_CONNECT_FORCE_NEW);
pg_prepare($c, 'q', $sql);
$t = hrtime(true);
for ($i = 0; $i < $total; $i++) {
    $r = pg_execute($c, 'q', [$i]);
    if ((int) pg_fetch_result($r, 0, 0) !== $i) {
        throw new RuntimeException("plain: wrong result");
    }
}
$plain = rate($total, (hrtime(true) - $t) / 1e9);
pg_close($c);

/* by hand: PHP's asynchronous API and stream_select. */
$links = [];
for ($k = 0; $k < $conns; $k++) {
    $links[$k] = pg_connect($dsn, PGSQL_CONNECT_FORCE_NEW);
    pg_prepare($links[$k], 'q', $sql);
}
$sockets = array_map('pg_socket', $links);
$left = array_fill(0, $conns, $per);
$done = 0;
$t = hrtime(true);
foreach ($links as $k => $l) {
    pg_send_execute($l, 'q', [$left[$k]]);
}
while ($done < $total) {
    $read = $sockets;
    $write = $except = null;
    if (stream_select($read, $write, $except, 5) === 0) {
        throw new RuntimeException("by hand: stalled");
    }
    foreach ($read as $k => $s) {
        $l = $links[$k];
        pg_consume_input($l);
        if (pg_connection_busy($l)) {
            continue;
        }
        $r = pg_get_result($l);
        if ((int) pg_fetch_result($r, 0, 0) !== $left[$k]) {
            throw new RuntimeException("by hand: wrong result");
        }
        while (pg_get_result($l));
        $done++;
        if (--$left[$k] > 0) {
            pg_send_execute($l, 'q', [$left[$k]]);
        }
    }
}
$by_hand = rate($total, (hrtime(true) - $t) / 1e9);
foreach ($links as $l) {
    pg_close($l);
}
unset($links, $sockets);

/* async: CONNS coroutines, ordinary pg_query calls. */
$links = [];
for ($k = 0; $k < $conns; $k++) {
    $links[$k] = pg_connect($dsn, PGSQL_CONNECT_FORCE_NEW);
    pg_prepare($links[$k], 'q', $sql);
}
$t = hrtime(true);
$cos = [];
for ($k = 0; $k < $conns; $k++) {
    $cos[] = Async\spawn(function () use ($links, $k, $per) {
        $l = $links[$k];
        for ($i = 0; $i < $per; $i++) {
            $r = pg_execute($l, 'q', [$i]);
            if ((int) pg_fetch_result($r, 0, 0) !== $i) {
                throw new RuntimeException("async: wrong result");
            }
        }
    });
}
Async\await_all_or_fail($cos);
$async = rate($total, (hrtime(true) - $t) / 1e9);

$load = sys_getloadavg();
printf("pgsql-bench (%s, %d connections, %d queries each mode, load %.2f %.2f %.2f)\n",
    ini_get('async.reactor') ?: 'uv', $conns, $total, $load[0], $load[1], $load[2]);
printf("  %-52s %10.0f queries/s\n", "plain PHP, one connection, blocking pg_execute", $plain);
printf("  %-52s %10.0f queries/s\n", "PHP's async API by hand (pg_send_* + stream_select)", $by_hand);
printf("  %-52s %10.0f queries/s\n", "async_pgsql: $conns coroutines, pg_execute each", $async);
printf("  ratio async / plain:   %.2fx\n", $async / $plain);
printf("  ratio async / by hand: %.2fx\n", $async / $by_hand);
