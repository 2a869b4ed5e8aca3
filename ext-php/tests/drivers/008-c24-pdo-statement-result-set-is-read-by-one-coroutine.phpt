--TEST--
Rule C24: a PDO mysql statement whose result set one coroutine still reads across a suspension cannot be executed again by another coroutine (PDO's own error mode reports it, naming both coroutines), and the first still gets its own rows; a statement read to the end, closed with closeCursor(), handed over to the coroutine that fetches from it, or left by a finished coroutine is executed again as usual
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('mysql'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;

$pdo = services_pdo_mysql();
$st = $pdo->prepare("SELECT ? AS who, n FROM (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3) t ORDER BY n");
$rows = fn() => implode(' ', array_map(fn($r) => $r['who'] . $r['n'], $st->fetchAll(PDO::FETCH_ASSOC)));

// A reads one row, waits, then reads on; B tries to execute meanwhile.
$a = spawn(function () use ($st) {
    $st->execute(['a']);
    $got = [$st->fetch(PDO::FETCH_ASSOC)];
    Async\delay(100);
    while ($r = $st->fetch(PDO::FETCH_ASSOC)) {
        $got[] = $r;
    }
    return implode(' ', array_map(fn($r) => $r['who'] . $r['n'], $got));
});
$b = spawn(function () use ($st) {
    Async\delay(20);
    try {
        $st->execute(['b']);
        return 'executed';
    } catch (PDOException $e) {
        return preg_replace('/#\d+/', '#N', $e->getMessage()) . " [" . $e->getCode() . "]";
    }
});
echo "reader: ", await($a), "\nintruder: ", await($b), "\n";

// Read to the end: anyone executes it again.
echo "after the end: ", await(spawn(function () use ($st, $rows) { $st->execute(['c']); return $rows(); })), "\n";

// closeCursor() ends a partly read result.
$a = spawn(function () use ($st) {
    $st->execute(['d']);
    $st->fetch();
    $st->closeCursor();
    Async\delay(50);
});
$b = spawn(function () use ($st, $rows) { Async\delay(10); $st->execute(['e']); return $rows(); });
echo "after closeCursor: ", await($b), "\n";
await($a);

// Handed over: the coroutine that fetches becomes the reader.
await(spawn(fn() => $st->execute(['f'])));
echo "handed over: ", await(spawn(function () use ($st, $rows) {
    $first = $st->fetch(PDO::FETCH_ASSOC);
    $st->execute(['g']);
    return $first['who'] . $first['n'] . ' then ' . $rows();
})), "\n";

// A finished coroutine's unread result is abandoned.
await(spawn(function () use ($st) { $st->execute(['h']); $st->fetch(); }));
echo "abandoned: ", await(spawn(function () use ($st, $rows) { $st->execute(['i']); return $rows(); })), "\n";

// foreach to the end ends the result too, while its coroutine lives on.
$a = spawn(function () use ($st) {
    $st->execute(['l']);
    $n = 0;
    foreach ($st as $row) {
        $n++;
    }
    Async\delay(50);
    return $n;
});
$b = spawn(function () use ($st, $rows) { Async\delay(10); $st->execute(['m']); return $rows(); });
echo "after foreach: ", await($b), ", read ", await($a), "\n";

// ERRMODE_WARNING: a warning and false, errorCode() HY000.
$pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_WARNING);
$a = spawn(function () use ($st) { $st->execute(['j']); $st->fetch(); Async\delay(50); return $st->fetchAll(); });
$b = spawn(function () use ($st) {
    Async\delay(10);
    $r = $st->execute(['k']);
    return var_export($r, true) . ' ' . $st->errorCode();
});
$res = await($b);
echo "warning mode: $res\n";
echo "reader rows left: ", count(await($a)), "\n";
?>
--EXPECTF--
reader: a1 a2 a3
intruder: SQLSTATE[HY000]: General error: coroutine #N cannot execute this statement: coroutine #N is reading its result set (it must fetch every row or call closeCursor() first) [HY000]
after the end: c1 c2 c3
after closeCursor: e1 e2 e3
handed over: f1 then g1 g2 g3
abandoned: i1 i2 i3
after foreach: m1 m2 m3, read 3

Warning: PDOStatement::execute(): SQLSTATE[HY000]: General error: coroutine #%d cannot execute this statement: coroutine #%d is reading its result set (it must fetch every row or call closeCursor() first) in %s on line %d
warning mode: false HY000
reader rows left: 2
