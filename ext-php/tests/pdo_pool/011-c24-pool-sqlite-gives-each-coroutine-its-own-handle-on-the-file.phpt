--TEST--
PDO pool: pdo_sqlite gives each coroutine its own handle on the same database file (transactions of their own, a handle's state gone for the next borrower), and an in-memory or temporary database with the pool is a clear PDOException
--EXTENSIONS--
pdo
pdo_sqlite
--FILE--
<?php
$file = tempnam(sys_get_temp_dir(), 'pool') . '.sqlite';
$pdo = new PDO("sqlite:$file", null, null, [
    PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MAX => 3, PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
]);
$pdo->exec('CREATE TABLE t (owner INT)');
var_dump($pdo->getAttribute(PDO::ATTR_POOL_ENABLED), $pdo->getAttribute(PDO::ATTR_DRIVER_NAME));
$handles = Async\await_all_or_fail(array_map(fn($i) => Async\spawn(function () use ($pdo, $i) {
    $pdo->exec("CREATE TEMP TABLE mine (x INT)");
    $pdo->beginTransaction();
    $pdo->exec("INSERT INTO t VALUES ($i)");
    $inside = $pdo->inTransaction();
    if ($i === 1) {
        $pdo->rollBack();
    } else {
        $pdo->commit();
    }
    return $inside;
}), range(0, 2)));
echo "each in its own transaction: ", json_encode($handles), "\n";
echo "committed: ", implode(',', $pdo->query('SELECT owner FROM t ORDER BY owner')->fetchAll(PDO::FETCH_COLUMN)), "\n";
$next = Async\spawn(function () use ($pdo) {
    try {
        $pdo->query('SELECT * FROM mine');
        return "a borrower's temporary table is still there";
    } catch (PDOException $e) {
        return "a borrower's temporary table is gone";
    }
});
echo Async\await($next), "\n";
foreach (['sqlite::memory:', 'sqlite:', 'sqlite:file::memory:?cache=shared'] as $dsn) {
    try {
        new PDO($dsn, null, null, [PDO::ATTR_POOL_ENABLED => true]);
        echo "$dsn: accepted\n";
    } catch (PDOException $e) {
        echo "$dsn: ", $e->getMessage(), "\n";
    }
}
// Without the pool an in-memory database is fine.
$mem = new PDO('sqlite::memory:', null, null, [PDO::ATTR_POOL_ENABLED => false]);
var_dump($mem->query('SELECT 1')->fetchColumn());
unset($pdo, $next);
@unlink($file);
?>
--EXPECT--
bool(true)
string(6) "sqlite"
each in its own transaction: [true,true,true]
committed: 0,2
a borrower's temporary table is gone
sqlite::memory:: SQLSTATE[HY000]: General error: an in-memory (or temporary) SQLite database belongs to one handle and cannot be pooled: give PDO::ATTR_POOL_ENABLED a database file
sqlite:: SQLSTATE[HY000]: General error: an in-memory (or temporary) SQLite database belongs to one handle and cannot be pooled: give PDO::ATTR_POOL_ENABLED a database file
sqlite:file::memory:?cache=shared: SQLSTATE[HY000]: General error: an in-memory (or temporary) SQLite database belongs to one handle and cannot be pooled: give PDO::ATTR_POOL_ENABLED a database file
int(1)
