--TEST--
The layout self-check: when PgSql\Connection objects do not have the layout the plugin was built for, it warns once and every pg_* function runs PHP's own (blocking) code
--EXTENSIONS--
pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--INI--
async_pgsql.layout_fault=1
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

$links = [pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW), pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW)];
$start = hrtime(true);
$rows = Async\await_all_or_fail([
    Async\spawn(fn() => pg_fetch_result(pg_query($links[0], "SELECT 'a', pg_sleep(0.2)"), 0, 0)),
    Async\spawn(fn() => pg_fetch_result(pg_query($links[1], "SELECT 'b', pg_sleep(0.2)"), 0, 0)),
]);
$elapsed = (hrtime(true) - $start) / 1e9;
echo implode(',', $rows), "\n";
echo "blocking as in plain PHP: ", $elapsed >= 0.4 ? "yes" : "no ($elapsed s)", "\n";
?>
--EXPECTF--
Warning: pg_query(): async_pgsql is disabled: PgSql\Connection objects do not have the layout this build was made for; pg_* and PDO pgsql calls block as in plain PHP in %s on line %d
a,b
blocking as in plain PHP: yes
