--TEST--
C18: connection errors (refused, bad password, connect_timeout on a silent server, the session terminated mid-query) give in a coroutine PHP's own warnings and results, without blocking other coroutines
--EXTENSIONS--
pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

/* A TCP server that accepts connections and never answers. */
$silent = stream_socket_server("tcp://127.0.0.1:0");
$silent_port = (int) explode(':', stream_socket_get_name($silent, false))[1];

function exercise(int $silent_port): string
{
    ob_start();
    var_dump(pg_connect("host=127.0.0.1 port=1 dbname=x user=y connect_timeout=5"));
    var_dump(pg_connect(pg_dsn("password=wrong")));
    var_dump(pg_pconnect("host=127.0.0.1 port=1 dbname=x user=y"));
    $t = hrtime(true);
    var_dump(pg_connect("host=127.0.0.1 port=$silent_port dbname=x user=y connect_timeout=2"));
    $s = (hrtime(true) - $t) / 1e9;
    echo "gave up after connect_timeout: ", $s >= 1.9 && $s < 10 * services_time_scale() ? "yes" : "no ($s s)", "\n";

    $c = pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW);
    $admin = pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW);
    $pid = pg_get_pid($c);
    pg_send_query($admin, "SELECT pg_sleep(0.2), pg_terminate_backend($pid)");
    var_dump(pg_query($c, "SELECT pg_sleep(3)"));
    while (pg_get_result($admin));
    var_dump(pg_connection_status($c) === PGSQL_CONNECTION_BAD);
    var_dump(pg_query($c, "SELECT 1"));
    var_dump(pg_last_error($c));
    return ob_get_clean();
}

$plain = exercise($silent_port);     /* no runtime yet: PHP's own functions */
$ticker = new StallTicker();
$coop = Async\await(Async\spawn(fn() => exercise($silent_port)));
$stall = $ticker->stop();

echo $plain === $coop ? "same output in a coroutine\n" : "DIFFERENT in a coroutine:\n$coop--- plain PHP:\n";
echo "stall below 50 ms: ", $stall < 50 * services_time_scale() ? "yes" : "no ($stall ms)", "\n";
echo $plain;
?>
--EXPECTF--
same output in a coroutine
stall below 50 ms: yes

Warning: pg_connect(): Unable to connect to PostgreSQL server: connection to server at "127.0.0.1", port 1 failed: Connection refused
	Is the server running on that host and accepting TCP/IP connections? in %s on line %d
bool(false)

Warning: pg_connect(): Unable to connect to PostgreSQL server: connection to server at "127.0.0.1", port %d failed: FATAL:  password authentication failed for user "tasync" in %s on line %d
bool(false)

Warning: pg_pconnect(): Unable to connect to PostgreSQL server: connection to server at "127.0.0.1", port 1 failed: Connection refused
	Is the server running on that host and accepting TCP/IP connections? in %s on line %d
bool(false)

Warning: pg_connect(): Unable to connect to PostgreSQL server: connection to server at "127.0.0.1", port %d failed: timeout expired in %s on line %d
bool(false)
gave up after connect_timeout: yes

Warning: pg_query(): Query failed: FATAL:  terminating connection due to administrator command
server closed the connection unexpectedly
	This probably means the server terminated abnormally
	before or while processing the request. in %s on line %d
bool(false)
bool(true)

Notice: pg_query(): Cannot set connection to blocking mode in %s on line %d
bool(false)
string(196) "FATAL:  terminating connection due to administrator command
server closed the connection unexpectedly
	This probably means the server terminated abnormally
	before or while processing the request."
