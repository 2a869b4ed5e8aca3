--TEST--
C18: PDO pgsql gives in a coroutine exactly what it gives in plain PHP (connect, exec, query, prepare + execute, transactions, lastInsertId, errors in every error mode), while other coroutines run
--EXTENSIONS--
pdo
pdo_pgsql
pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

function show(PDOException $e): void
{
    echo get_class($e), ": ", $e->getMessage(), " | code ", $e->getCode(), " | ", json_encode($e->errorInfo), "\n";
}

function exercise(): string
{
    ob_start();
    $db = pdo_pgsql();
    echo get_class($db), " ", $db->getAttribute(PDO::ATTR_DRIVER_NAME), "\n";
    var_dump($db->query("SELECT 1 AS one, 'x' AS two")->fetch(PDO::FETCH_ASSOC));
    var_dump($db->exec("CREATE TEMP TABLE t (id serial PRIMARY KEY, v text)"));
    var_dump($db->exec("INSERT INTO t (v) VALUES ('a'), ('b')"));
    var_dump($db->lastInsertId(), $db->lastInsertId('t_id_seq'));
    $st = $db->prepare("SELECT id, v FROM t WHERE id > ? ORDER BY id");
    $st->execute([0]);
    var_dump($st->fetchAll(PDO::FETCH_ASSOC), $st->rowCount());
    $st = $db->prepare("SELECT :a::int + :b::int AS s");
    $st->execute(['a' => 1, 'b' => 2]);
    var_dump($st->fetchColumn());
    $st->execute(['a' => 5, 'b' => 5]);
    var_dump($st->fetchColumn());
    $st = $db->prepare("SELECT ?::text IS NULL AS n, ?::bool AS b, ?::int AS i");
    $st->bindValue(1, null, PDO::PARAM_NULL);
    $st->bindValue(2, true, PDO::PARAM_BOOL);
    $st->bindValue(3, 7, PDO::PARAM_INT);
    $st->execute();
    var_dump($st->fetch(PDO::FETCH_ASSOC));
    $st = $db->prepare("UPDATE t SET v = v || '!' WHERE id <= ?");
    $st->execute([2]);
    var_dump($st->rowCount());
    $db->setAttribute(PDO::ATTR_EMULATE_PREPARES, true);
    $st = $db->prepare("SELECT ? AS e");
    $st->execute(['emulated']);
    var_dump($st->fetchColumn());
    $db->setAttribute(PDO::ATTR_EMULATE_PREPARES, false);

    foreach (["SELEC 1", "SELECT * FROM nosuch", "SELECT 1/0"] as $sql) {
        try {
            $db->query($sql);
        } catch (PDOException $e) {
            show($e);
        }
    }
    try {
        $db->exec("INSERT INTO t (id, v) VALUES (1, 'dup')");
    } catch (PDOException $e) {
        show($e);
    }
    $st = $db->prepare("SELECT ?::int");
    try {
        $st->execute(['x']);
    } catch (PDOException $e) {
        show($e);
    }
    $db->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_SILENT);
    var_dump($db->query("SELEC 2"), $db->errorInfo(), $db->exec("SELEC 3"), $db->errorCode());
    $st = $db->prepare("SELECT ?::int");
    var_dump($st->execute(['y']), $st->errorInfo());
    $db->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_WARNING);
    var_dump($db->exec("SELEC 4"));
    $db->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);

    var_dump($db->inTransaction(), $db->beginTransaction(), $db->inTransaction());
    $db->exec("INSERT INTO t (v) VALUES ('in transaction')");
    var_dump($db->rollBack(), $db->inTransaction(), $db->query("SELECT count(*) FROM t")->fetchColumn());
    $db->beginTransaction();
    $db->exec("INSERT INTO t (v) VALUES ('committed')");
    var_dump($db->commit(), $db->query("SELECT count(*) FROM t")->fetchColumn());
    try {
        $db->commit();
    } catch (PDOException $e) {
        show($e);
    }
    $db->beginTransaction();
    try {
        $db->exec("SELEC");
    } catch (PDOException $e) {
    }
    try {
        $db->exec("SELECT 1");
    } catch (PDOException $e) {
        show($e);
    }
    var_dump($db->commit(), $db->inTransaction());
    $db->exec("CREATE TEMP TABLE d (x int UNIQUE DEFERRABLE INITIALLY DEFERRED)");
    $db->beginTransaction();
    $db->exec("INSERT INTO d VALUES (1), (1)");
    try {
        $db->commit();
    } catch (PDOException $e) {
        show($e);
    }
    var_dump($db->inTransaction());

    try {
        new PDO(pdo_pgsql_dsn(), service_env('TASYNC_TEST_PGSQL_USER'), 'wrong password');
    } catch (PDOException $e) {
        show($e);
    }
    try {
        new PDO("pgsql:host=127.0.0.1;port=1;dbname=x", 'u', 'p');
    } catch (PDOException $e) {
        show($e);
    }

    /* The server ends the session while a query runs. */
    $admin = pg_connect(pg_dsn(), PGSQL_CONNECT_FORCE_NEW);
    $pid = $db->query("SELECT pg_backend_pid()")->fetchColumn();
    pg_send_query($admin, "SELECT pg_sleep(0.2), pg_terminate_backend($pid)");
    try {
        $db->query("SELECT pg_sleep(3)");
    } catch (PDOException $e) {
        show($e);
    }
    while (pg_get_result($admin));
    try {
        $db->query("SELECT 1");
    } catch (PDOException $e) {
        show($e);
    }
    return ob_get_clean();
}

$plain = exercise();                 /* no runtime yet: PHP's own PDO */
$ticker = new StallTicker(1);
$coop = Async\await(Async\spawn(fn() => exercise()));
$ticks = $ticker->ticks;
$ticker->stop();

echo $plain === $coop ? "same output in a coroutine\n" : "DIFFERENT in a coroutine:\n$coop--- plain PHP:\n";
echo "other coroutines ran meanwhile: ", $ticks >= 5 ? "yes" : "no ($ticks ticks)", "\n";
echo $plain;
?>
--EXPECTF--
same output in a coroutine
other coroutines ran meanwhile: yes
PDO pgsql
array(2) {
  ["one"]=>
  int(1)
  ["two"]=>
  string(1) "x"
}
int(0)
int(2)
string(1) "2"
string(1) "2"
array(2) {
  [0]=>
  array(2) {
    ["id"]=>
    int(1)
    ["v"]=>
    string(1) "a"
  }
  [1]=>
  array(2) {
    ["id"]=>
    int(2)
    ["v"]=>
    string(1) "b"
  }
}
int(2)
int(3)
int(10)
array(3) {
  ["n"]=>
  bool(true)
  ["b"]=>
  bool(true)
  ["i"]=>
  int(7)
}
int(2)
string(8) "emulated"
PDOException: SQLSTATE[42601]: Syntax error: 7 ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC 1
        ^ | code 42601 | ["42601",7,"ERROR:  syntax error at or near \"SELEC\"\nLINE 1: SELEC 1\n        ^"]
PDOException: SQLSTATE[42P01]: Undefined table: 7 ERROR:  relation "nosuch" does not exist
LINE 1: SELECT * FROM nosuch
                      ^ | code 42P01 | ["42P01",7,"ERROR:  relation \"nosuch\" does not exist\nLINE 1: SELECT * FROM nosuch\n                      ^"]
PDOException: SQLSTATE[22012]: Division by zero: 7 ERROR:  division by zero | code 22012 | ["22012",7,"ERROR:  division by zero"]
PDOException: SQLSTATE[23505]: Unique violation: 7 ERROR:  duplicate key value violates unique constraint "t_pkey"
DETAIL:  Key (id)=(1) already exists. | code 23505 | ["23505",7,"ERROR:  duplicate key value violates unique constraint \"t_pkey\"\nDETAIL:  Key (id)=(1) already exists."]
PDOException: SQLSTATE[22P02]: Invalid text representation: 7 ERROR:  invalid input syntax for type integer: "x"
CONTEXT:  unnamed portal parameter $1 = '...' | code 22P02 | ["22P02",7,"ERROR:  invalid input syntax for type integer: \"x\"\nCONTEXT:  unnamed portal parameter $1 = '...'"]
bool(false)
array(3) {
  [0]=>
  string(5) "42601"
  [1]=>
  int(7)
  [2]=>
  string(65) "ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC 2
        ^"
}
bool(false)
string(5) "42601"
bool(false)
array(3) {
  [0]=>
  string(5) "22P02"
  [1]=>
  int(7)
  [2]=>
  string(96) "ERROR:  invalid input syntax for type integer: "y"
CONTEXT:  unnamed portal parameter $1 = '...'"
}

Warning: PDO::exec(): SQLSTATE[42601]: Syntax error: 7 ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC 4
        ^ in %s on line %d
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
int(2)
bool(true)
int(3)
PDOException: There is no active transaction | code 0 | null
PDOException: SQLSTATE[25P02]: In failed sql transaction: 7 ERROR:  current transaction is aborted, commands ignored until end of transaction block | code 25P02 | ["25P02",7,"ERROR:  current transaction is aborted, commands ignored until end of transaction block"]
bool(true)
bool(false)
PDOException: SQLSTATE[23505]: Unique violation: 7 ERROR:  duplicate key value violates unique constraint "d_x_key"
DETAIL:  Key (x)=(1) already exists. | code 23505 | ["23505",7,"ERROR:  duplicate key value violates unique constraint \"d_x_key\"\nDETAIL:  Key (x)=(1) already exists."]
bool(false)
PDOException: SQLSTATE[08006] [7] connection to server at "127.0.0.1", port %d failed: FATAL:  password authentication failed for user "tasync" | code 7 | ["08006",7,"connection to server at \"127.0.0.1\", port %d failed: FATAL:  password authentication failed for user \"tasync\""]
PDOException: SQLSTATE[08006] [7] connection to server at "127.0.0.1", port %d failed: Connection refused
	Is the server running on that host and accepting TCP/IP connections? | code 7 | ["08006",7,"connection to server at \"127.0.0.1\", port %d failed: Connection refused\n\tIs the server running on that host and accepting TCP\/IP connections?"]
PDOException: SQLSTATE[HY000]: General error: 7 FATAL:  terminating connection due to administrator command
server closed the connection unexpectedly
	This probably means the server terminated abnormally
	before or while processing the request. | code HY000 | ["HY000",7,"FATAL:  terminating connection due to administrator command\nserver closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n\tbefore or while processing the request."]
PDOException: SQLSTATE[HY000]: General error: 7 no connection to the server | code HY000 | ["HY000",7,"no connection to the server"]
