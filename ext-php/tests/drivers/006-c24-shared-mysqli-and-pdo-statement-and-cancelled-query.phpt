--TEST--
Rules C24 and C18: a mysqli connection and a PDO mysql prepared statement shared by two coroutines: the second one's query fails with the driver's own error while the first gets its own result, and the connection stays usable; a cancelled mysqli SELECT SLEEP leaves the connection failed, so that no later query reads the cancelled one's reply
--EXTENSIONS--
mysqlnd
mysqli
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;

mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
function attempt(callable $f): string
{
    try {
        return var_export($f(), true);
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}

$m = services_mysqli();
$a = spawn(fn() => attempt(fn() => $m->query("SELECT SLEEP(0.2) AS s, 'a' AS who")->fetch_assoc()['who']));
$b = spawn(fn() => attempt(fn() => $m->query("SELECT 'b' AS who")->fetch_assoc()['who']));
echo "mysqli first: ", await($a), "\nmysqli second: ", await($b), "\n";
echo "mysqli then: ", attempt(fn() => $m->query("SELECT 'c' AS who")->fetch_assoc()['who']), "\n";

$pdo = services_pdo_mysql();
$st = $pdo->prepare("SELECT SLEEP(?) AS s, ? AS who");
$run = fn(float $sleep, string $who) => attempt(function () use ($st, $sleep, $who) {
    $st->execute([$sleep, $who]);
    return implode(',', $st->fetchAll(PDO::FETCH_COLUMN, 1));
});
$a = spawn(fn() => $run(0.2, 'a'));
$b = spawn(fn() => $run(0, 'b'));
echo "pdo first: ", await($a), "\npdo second: ", await($b), "\n";
echo "pdo then: ", $run(0, 'c'), "\n";

// The reply of a cancelled query comes after the cancellation: nobody reads it.
$m = services_mysqli();
$q = spawn(fn() => $m->query("SELECT SLEEP(0.5) AS s, 'slept' AS who")->fetch_assoc()['who']);
try {
    await($q, Async\timeout(100));
} catch (Async\AwaitCancelledException) {
    echo "still sleeping after 0.1 s\n";
}
$q->cancel();
echo "cancelled: ", attempt(fn() => await($q)), "\n";
Async\delay(700);
for ($i = 0; $i < 2; $i++) {
    echo "next: ", attempt(fn() => $m->query("SELECT 'mine' AS who")->fetch_assoc()['who']), "\n";
}
?>
--EXPECTF--
mysqli first: 'a'
mysqli second: mysqli_sql_exception: Commands out of sync; you can't run this command now
mysqli then: 'c'
pdo first: 'a'
pdo second: PDOException: SQLSTATE[HY000]: General error: 2014 Cannot execute queries while other unbuffered queries are active.%s
pdo then: 'c'
still sleeping after 0.1 s
cancelled: mysqli_sql_exception: MySQL server has gone away
next: mysqli_sql_exception: MySQL server has gone away
next: mysqli_sql_exception: MySQL server has gone away
