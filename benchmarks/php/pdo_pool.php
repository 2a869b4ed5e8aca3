<?php
/*
 * Queries per second of PDO MySQL from many coroutines (issue 26):
 *
 *   plain    plain PHP: one connection, the queries one after another (no
 *            runtime yet: PDO as PHP ships it)
 *   own      COROUTINES coroutines, each opening its own connection (the
 *            connect counted: that is what a coroutine without a pool pays)
 *   pooled   COROUTINES coroutines sharing one PDO object with
 *            PDO::ATTR_POOL_ENABLED and ATTR_POOL_MAX = POOL_MAX
 *
 * Every mode runs the same number of queries (SELECT ? through a prepared
 * statement, the row fetched). Environment: the TASYNC_TEST_MYSQL_* of
 * tests/services (./dev services DIR, then source DIR/env.sh),
 * BENCH_COROUTINES (100), BENCH_QUERIES (20000), BENCH_POOL_MAX (16).
 *
 *   php -n -d extension=pdo -d extension=mysqlnd -d extension=pdo_mysql \
 *       -d extension=build/ext-php/async.so -d async.backend_dir=build/backends \
 *       benchmarks/php/pdo_pool.php
 *
 * The figures mean something only on a quiet machine (uptime); the server
 * runs on the same machine and shares its cores.
 */
declare(strict_types=1);

function env(string $name): string
{
    $v = getenv($name);
    if ($v === false) {
        fwrite(STDERR, "$name is not set: start tests/services/services.py and source its env.sh\n");
        exit(2);
    }
    return $v;
}

$dsn = sprintf('mysql:host=%s;port=%d;dbname=%s', env('TASYNC_TEST_MYSQL_HOST'), (int) env('TASYNC_TEST_MYSQL_PORT'),
    env('TASYNC_TEST_MYSQL_DB'));
$user = env('TASYNC_TEST_MYSQL_USER');
$pass = env('TASYNC_TEST_MYSQL_PASSWORD');
$coroutines = (int) (getenv('BENCH_COROUTINES') ?: 100);
$total = (int) (getenv('BENCH_QUERIES') ?: 20000);
$poolMax = (int) (getenv('BENCH_POOL_MAX') ?: 16);
$per = intdiv($total, $coroutines);
$total = $per * $coroutines;
$options = [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION];

function run_queries(PDO $pdo, int $n, int $seed): int
{
    $st = $pdo->prepare('SELECT ? AS n');
    $sum = 0;
    for ($i = 0; $i < $n; $i++) {
        $st->execute([$seed + $i]);
        $sum += (int) $st->fetchColumn();
        $st->closeCursor();
    }
    return $sum;
}

function report(string $mode, int $queries, float $seconds, string $note = ''): void
{
    printf("%-8s %7d queries in %7.3f s  %9.0f queries/s%s\n", $mode, $queries, $seconds, $queries / $seconds,
        $note !== '' ? "  ($note)" : '');
}

printf("PDO MySQL, %d queries, %d coroutines, pool max %d; load: %s\n", $total, $coroutines, $poolMax,
    trim((string) @file_get_contents('/proc/loadavg')));

// plain: before the runtime starts, PDO as PHP ships it.
$pdo = new PDO($dsn, $user, $pass, $options);
$t = hrtime(true);
run_queries($pdo, $total, 0);
report('plain', $total, (hrtime(true) - $t) / 1e9, 'one connection');
$pdo = null;

// own: each coroutine connects.
$t = hrtime(true);
$tasks = [];
for ($c = 0; $c < $coroutines; $c++) {
    $tasks[] = Async\spawn(function () use ($dsn, $user, $pass, $options, $per, $c) {
        return run_queries(new PDO($dsn, $user, $pass, $options), $per, $c * $per);
    });
}
Async\await_all_or_fail($tasks);
report('own', $total, (hrtime(true) - $t) / 1e9, "$coroutines connections");

// pooled: one object for all.
$pdo = new PDO($dsn, $user, $pass, $options + [PDO::ATTR_POOL_ENABLED => true, PDO::ATTR_POOL_MAX => $poolMax]);
$t = hrtime(true);
$tasks = [];
for ($c = 0; $c < $coroutines; $c++) {
    $tasks[] = Async\spawn(fn() => run_queries($pdo, $per, $c * $per));
}
Async\await_all_or_fail($tasks);
report('pooled', $total, (hrtime(true) - $t) / 1e9, "one object, at most $poolMax connections");
