--TEST--
C18: every cooperative pg_* function gives in a coroutine exactly what it gives in plain PHP (results, warnings, notices, exceptions), while other coroutines run
--EXTENSIONS--
pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

/* Everything the plugin takes over, with $tag only in application_name
 * (so that each run makes its own connections). Returns what it printed. */
function exercise(string $tag): string
{
    ob_start();
    $a = pg_connect(pg_dsn("application_name=$tag"));
    $b = pg_connect(pg_dsn("application_name=$tag"));
    echo "connect: ", get_class($a), ", same link again: ", var_export($a === $b, true), "\n";
    $f = pg_connect(pg_dsn("application_name=$tag"), PGSQL_CONNECT_FORCE_NEW);
    echo "forced new link: ", var_export($a !== $f, true), "\n";
    $p = pg_pconnect(pg_dsn("application_name=p$tag"));
    echo "pconnect: ", get_class($p), " ", pg_fetch_result(pg_query($p, "SELECT 'persistent'"), 0, 0), "\n";
    $p2 = pg_pconnect(pg_dsn("application_name=p$tag"));
    echo "pconnect again: ", pg_fetch_result(pg_query($p2, "SELECT current_setting('application_name')"), 0, 0) === "p$tag" ? "same server session" : "other", "\n";

    var_dump(pg_fetch_assoc(pg_query($a, "SELECT 1 AS one, 'x' AS two, NULL AS three")));
    var_dump(pg_query($a, "SELEC 1"));
    var_dump(pg_last_error($a));
    var_dump(pg_query($a, ""));
    var_dump(pg_fetch_all(pg_query($a, "SELECT 1 AS a; SELECT 2 AS b")));
    var_dump(pg_fetch_assoc(pg_query_params($a, 'SELECT $1::int + $2::int AS s, $3::text IS NULL AS n', [1, "2", null])));
    var_dump(pg_query_params($a, 'SELECT $1::int', ['nope']));
    try {
        pg_query_params($a, 'SELECT $1::text', [new stdClass()]);
    } catch (Error $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    var_dump(pg_prepare($a, "st", 'SELECT $1::int * 2 AS d') instanceof PgSql\Result);
    var_dump(pg_fetch_assoc(pg_execute($a, "st", [21])));
    var_dump(pg_execute($a, "missing", []));
    var_dump(pg_prepare($a, "st", 'SELECT 1'));
    var_dump(pg_result_status(pg_query($a, "CREATE TEMP TABLE t (id int, v text)")));
    var_dump(pg_affected_rows(pg_query($a, "INSERT INTO t VALUES (1, 'a'), (2, 'b')")));
    var_dump(pg_fetch_result(pg_query("SELECT 'default link'"), 0, 0));

    var_dump(pg_send_query($a, "SELECT pg_sleep(0.05)::text AS z; SELECT 3 AS c"));
    var_dump(pg_connection_busy($a) || true);
    while ($r = pg_get_result($a)) {
        var_dump(pg_fetch_all($r));
    }
    var_dump(pg_send_query_params($a, 'SELECT $1::int AS v', [7]));
    var_dump(pg_fetch_all(pg_get_result($a)), pg_get_result($a));
    var_dump(pg_send_prepare($a, "sp", 'SELECT $1::text AS t'));
    var_dump(pg_result_status(pg_get_result($a)), pg_get_result($a));
    var_dump(pg_send_execute($a, "sp", ['hi']));
    var_dump(pg_fetch_all(pg_get_result($a)), pg_get_result($a));
    var_dump(pg_send_query($a, "SELECT pg_sleep(0.05)"));
    var_dump(pg_fetch_all(pg_query($a, "SELECT 2 AS two")));
    var_dump(pg_send_query($a, "SELECT 1"));
    var_dump(pg_send_query($a, "SELECT 2 AS again"));
    while ($r = pg_get_result($a)) {
        var_dump(pg_fetch_all($r));
    }

    var_dump(pg_copy_from($a, "t", ["3\tc\n", "4\td", "5\t\\N"]));
    var_dump(pg_copy_to($a, "t"));
    var_dump(pg_copy_to($a, "t", ",", "NULL"));
    var_dump(pg_copy_from($a, "t", ["bad row"]));
    var_dump(pg_copy_to($a, "nosuch"));
    foreach ([fn () => pg_copy_from($a, "t", [], ",,"), fn () => pg_copy_to($a, "t", "")] as $bad) {
        try {
            $bad();
        } catch (ValueError $e) {
            echo get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
    var_dump(pg_fetch_result(pg_query($a, "SELECT count(*) FROM t"), 0, 0));

    pg_query($a, "BEGIN");
    $oid = pg_lo_create($a);
    $lo = pg_lo_open($a, $oid, "w");
    var_dump(pg_lo_write($lo, "large object"));
    pg_lo_close($lo);
    $lo = pg_lo_open($a, $oid, "r");
    var_dump(pg_lo_read($lo, 100));
    pg_lo_close($lo);
    var_dump(pg_lo_unlink($a, $oid));
    pg_query($a, "COMMIT");

    pg_close($f);
    try {
        pg_query($f, "SELECT 1");
    } catch (Error $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    return ob_get_clean();
}

$plain = exercise("plain");          /* no runtime yet: PHP's own functions */
$ticker = new StallTicker(1);
$coop = Async\await(Async\spawn(fn() => exercise("coroutine")));
$ticks = $ticker->ticks;
$ticker->stop();

echo $plain === $coop ? "same output in a coroutine\n" : "DIFFERENT in a coroutine:\n$coop\n--- plain PHP:\n";
echo "other coroutines ran meanwhile: ", $ticks >= 5 ? "yes" : "no ($ticks ticks)", "\n";
echo $plain;
?>
--EXPECTF--
same output in a coroutine
other coroutines ran meanwhile: yes
connect: PgSql\Connection, same link again: true
forced new link: true
pconnect: PgSql\Connection persistent
pconnect again: same server session
array(3) {
  ["one"]=>
  string(1) "1"
  ["two"]=>
  string(1) "x"
  ["three"]=>
  NULL
}

Warning: pg_query(): Query failed: ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC 1
        ^ in %s on line %d
bool(false)
string(65) "ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC 1
        ^"

Warning: pg_query(): Query failed:  in %s on line %d
bool(false)
array(1) {
  [0]=>
  array(1) {
    ["b"]=>
    string(1) "2"
  }
}
array(2) {
  ["s"]=>
  string(1) "3"
  ["n"]=>
  string(1) "t"
}

Warning: pg_query_params(): Query failed: ERROR:  invalid input syntax for type integer: "nope"
CONTEXT:  unnamed portal parameter $1 = '...' in %s on line %d
bool(false)
Error: Object of class stdClass could not be converted to string
bool(true)
array(1) {
  ["d"]=>
  string(2) "42"
}

Warning: pg_execute(): Query failed: ERROR:  prepared statement "missing" does not exist in %s on line %d
bool(false)

Warning: pg_prepare(): Query failed: ERROR:  prepared statement "st" already exists in %s on line %d
bool(false)
int(1)
int(2)

Deprecated: pg_query(): Automatic fetching of PostgreSQL connection is deprecated in %s on line %d
string(12) "default link"
bool(true)
bool(true)
array(1) {
  [0]=>
  array(1) {
    ["z"]=>
    string(0) ""
  }
}
array(1) {
  [0]=>
  array(1) {
    ["c"]=>
    string(1) "3"
  }
}
bool(true)
array(1) {
  [0]=>
  array(1) {
    ["v"]=>
    string(1) "7"
  }
}
bool(false)
bool(true)
int(1)
bool(false)
bool(true)
array(1) {
  [0]=>
  array(1) {
    ["t"]=>
    string(2) "hi"
  }
}
bool(false)
bool(true)

Notice: pg_query(): Found results on this connection. Use pg_get_result() to get these results first in %s on line %d
array(1) {
  [0]=>
  array(1) {
    ["two"]=>
    string(1) "2"
  }
}
bool(true)

Notice: pg_send_query(): There are results on this connection. Call pg_get_result() until it returns FALSE in %s on line %d
bool(false)
bool(true)
array(5) {
  [0]=>
  string(4) "1	a
"
  [1]=>
  string(4) "2	b
"
  [2]=>
  string(4) "3	c
"
  [3]=>
  string(4) "4	d
"
  [4]=>
  string(5) "5	\N
"
}
array(5) {
  [0]=>
  string(4) "1,a
"
  [1]=>
  string(4) "2,b
"
  [2]=>
  string(4) "3,c
"
  [3]=>
  string(4) "4,d
"
  [4]=>
  string(7) "5,NULL
"
}

Warning: pg_copy_from(): Copy command failed: ERROR:  invalid input syntax for type integer: "bad row"
CONTEXT:  COPY t, line 1, column id: "bad row" in %s on line %d
bool(false)

Warning: pg_copy_to(): Copy command failed: ERROR:  relation "nosuch" does not exist in %s on line %d
bool(false)
ValueError: pg_copy_from(): Argument #4 ($separator) must be one character
ValueError: pg_copy_to(): Argument #3 ($separator) must be one character
string(1) "5"
int(12)
string(12) "large object"
bool(true)
Error: PostgreSQL connection has already been closed
