--TEST--
The layout self-check: when pdo_pgsql's connection handle does not have the layout the plugin was built for, it warns once at the first new PDO() and PDO pgsql works as in plain PHP
--EXTENSIONS--
pdo
pdo_pgsql
--SKIPIF--
<?php require __DIR__ . '/pgsql.inc'; services_skip('pgsql'); ?>
--INI--
async_pgsql.layout_fault=2
--FILE--
<?php
require __DIR__ . '/pgsql.inc';

$dbs = [pdo_pgsql(), pdo_pgsql()];
$start = hrtime(true);
$rows = Async\await_all_or_fail([
    Async\spawn(fn() => $dbs[0]->query("SELECT 'a', pg_sleep(0.2)")->fetchColumn()),
    Async\spawn(fn() => $dbs[1]->query("SELECT 'b', pg_sleep(0.2)")->fetchColumn()),
]);
$elapsed = (hrtime(true) - $start) / 1e9;
echo implode(',', $rows), "\n";
echo "blocking as in plain PHP: ", $elapsed >= 0.4 ? "yes" : "no ($elapsed s)", "\n";
try {
    pdo_pgsql()->query("SELEC");
} catch (PDOException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECTF--
Warning: PDO::__construct(): async_pgsql is disabled: pdo_pgsql's connection handle does not have the layout this build was made for; pg_* and PDO pgsql calls block as in plain PHP in %s on line %d
a,b
blocking as in plain PHP: yes
SQLSTATE[42601]: Syntax error: 7 ERROR:  syntax error at or near "SELEC"
LINE 1: SELEC
        ^
