--TEST--
C18: pg_get_result() waits for a pg_send_query() result without blocking other coroutines, and pg_send_query() waits likewise for the results it discards
--EXTENSIONS--
pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

$c = pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW);
$ticker = new StallTicker();
Async\delay(10); /* the ticker runs from here on */
$start = hrtime(true);
var_dump(pg_send_query($c, "SELECT pg_sleep(0.3)::text AS slept"));
var_dump(pg_fetch_all(pg_get_result($c)));
var_dump(pg_get_result($c));
var_dump(pg_send_query($c, "SELECT pg_sleep(0.3)"));
var_dump(pg_send_query($c, "SELECT 'second' AS q"));
while ($r = pg_get_result($c)) {
    var_dump(pg_fetch_all($r));
}
$elapsed = (hrtime(true) - $start) / 1e9;
$stall = $ticker->stop();
echo "waited: ", $elapsed >= 0.55 ? "yes" : "no ($elapsed s)", "\n";
echo "stall below 50 ms: ", $stall < 50 * services_time_scale() ? "yes" : "no ($stall ms)", "\n";
?>
--EXPECTF--
bool(true)
array(1) {
  [0]=>
  array(1) {
    ["slept"]=>
    string(0) ""
  }
}
bool(false)
bool(true)

Notice: pg_send_query(): There are results on this connection. Call pg_get_result() until it returns FALSE in %s on line %d
bool(false)
waited: yes
stall below 50 ms: yes
