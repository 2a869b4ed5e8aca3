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
// Orderings by flags, never by timing: until($flag) waits for another coroutine to set it.
function until(bool &$flag): void
{
    while (!$flag) {
        Async\delay(1);
    }
}

// A reads one row and waits; B tries to execute meanwhile; A reads on.
$aRead = $bDone = false;
$a = spawn(function () use ($st, &$aRead, &$bDone) {
    $st->execute(['a']);
    $got = [$st->fetch(PDO::FETCH_ASSOC)];
    $aRead = true;
    until($bDone);
    while ($r = $st->fetch(PDO::FETCH_ASSOC)) {
        $got[] = $r;
    }
    return implode(' ', array_map(fn($r) => $r['who'] . $r['n'], $got));
});
$b = spawn(function () use ($st, &$aRead, &$bDone) {
    until($aRead);
    try {
        $st->execute(['b']);
        $r = 'executed';
    } catch (PDOException $e) {
        $r = preg_replace('/#\d+/', '#N', $e->getMessage()) . " [" . $e->getCode() . "]";
    }
    $bDone = true;
    return $r;
});
echo "reader: ", await($a), "\nintruder: ", await($b), "\n";

// Read to the end: anyone executes it again.
echo "after the end: ", await(spawn(function () use ($st, $rows) { $st->execute(['c']); return $rows(); })), "\n";

// closeCursor() ends a partly read result.
$aRead = $bDone = false;
$a = spawn(function () use ($st, &$aRead, &$bDone) {
    $st->execute(['d']);
    $st->fetch();
    $st->closeCursor();
    $aRead = true;
    until($bDone);
});
$b = spawn(function () use ($st, $rows, &$aRead, &$bDone) {
    until($aRead);
    $st->execute(['e']);
    $bDone = true;
    return $rows();
});
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
$aRead = $bDone = false;
$a = spawn(function () use ($st, &$aRead, &$bDone) {
    $st->execute(['l']);
    $n = 0;
    foreach ($st as $row) {
        $n++;
    }
    $aRead = true;
    until($bDone);
    return $n;
});
$b = spawn(function () use ($st, $rows, &$aRead, &$bDone) {
    until($aRead);
    $st->execute(['m']);
    $bDone = true;
    return $rows();
});
echo "after foreach: ", await($b), ", read ", await($a), "\n";

// ERRMODE_WARNING: a warning and false, errorCode() HY000.
$pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_WARNING);
$aRead = $bDone = false;
$a = spawn(function () use ($st, &$aRead, &$bDone) {
    $st->execute(['j']);
    $st->fetch();
    $aRead = true;
    until($bDone);
    return $st->fetchAll();
});
$b = spawn(function () use ($st, &$aRead, &$bDone) {
    until($aRead);
    $r = $st->execute(['k']);
    $bDone = true;
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
