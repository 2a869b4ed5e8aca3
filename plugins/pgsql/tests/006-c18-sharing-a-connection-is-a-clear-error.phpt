--TEST--
C18: a second coroutine using a connection while another one waits in a query on it gets an Error naming both coroutines, never the other's results; after the first one is done the connection is in sync
--EXTENSIONS--
pgsql
pdo
pdo_pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

/* The message with coroutine ids as #N, and the ids (no regex: PCRE's JIT
 * upsets valgrind). */
function ids_of(string $message, ?array &$ids): string
{
    $parts = explode('#', $message);
    $ids = [];
    for ($i = 1; $i < count($parts); $i++) {
        $ids[] = (int) $parts[$i];
        $parts[$i] = 'N' . substr($parts[$i], strlen((string) (int) $parts[$i]));
    }
    return implode('#', $parts);
}

$c = pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW);
$first = Async\spawn(fn() => pg_fetch_result(pg_query($c, "SELECT 'first', pg_sleep(0.3)"), 0, 0));
$second = Async\spawn(function () use ($c) {
    Async\delay(50);
    foreach (['pg_query' => fn() => pg_query($c, "SELECT 'second'"),
              'pg_send_query' => fn() => pg_send_query($c, "SELECT 'second'"),
              'pg_close' => fn() => pg_close($c)] as $name => $call) {
        try {
            $call();
            echo "$name: no error\n";
        } catch (Error $e) {
            echo "$name: ", get_class($e), ": ", ids_of($e->getMessage(), $ids), "\n";
            echo "  names both coroutines: ", $ids == [$GLOBALS['first']->getId(), Async\currentCoroutine()->getId()] ? "yes" : "no", "\n";
        }
    }
});
$got = Async\await($first);
echo "first got: $got\n";
Async\await($second);
echo "then: ", pg_fetch_result(pg_query($c, "SELECT 'in sync'"), 0, 0), "\n";

$db = pdo_pgsql();
$first = Async\spawn(fn() => $db->query("SELECT 'first', pg_sleep(0.3)")->fetchColumn());
$second = Async\spawn(function () use ($db) {
    Async\delay(50);
    try {
        $db->query("SELECT 'second'");
    } catch (Error $e) {
        echo "PDO::query: ", get_class($e), ": ", ids_of($e->getMessage(), $ids), "\n";
    }
});
$got = Async\await($first);
echo "first got: $got\n";
Async\await($second);
echo "then: ", $db->query("SELECT 'in sync'")->fetchColumn(), "\n";
?>
--EXPECT--
pg_query: Error: PostgreSQL connection is busy: coroutine #N is inside pg_query() on it; coroutine #N cannot use it at the same time (give each coroutine its own connection)
  names both coroutines: yes
pg_send_query: Error: PostgreSQL connection is busy: coroutine #N is inside pg_query() on it; coroutine #N cannot use it at the same time (give each coroutine its own connection)
  names both coroutines: yes
pg_close: Error: PostgreSQL connection is busy: coroutine #N is inside pg_query() on it; coroutine #N cannot use it at the same time (give each coroutine its own connection)
  names both coroutines: yes
first got: first
then: in sync
PDO::query: Error: PostgreSQL connection is busy: coroutine #N is inside PDO::query() on it; coroutine #N cannot use it at the same time (give each coroutine its own connection)
first got: first
then: in sync
