--TEST--
C18: a loop of fputcsv() writing 50 MiB of rows to a plain file lets the other coroutines run while it writes, on every backend
--INI--
memory_limit=-1
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

$row = [str_repeat('a', 100), str_repeat('b', 100), 'c'];
$line = strlen(implode(',', $row)) + 1;
$rows = intdiv(large_transfer_bytes(), $line);
$path = sys_get_temp_dir() . '/tasync-csv-' . getmypid() . '.csv';

Async\await(Async\spawn(function () use ($path, $row, $rows, $line) {
    [$n, $turns] = count_turns(function () use ($path, $row, $rows) {
        $f = fopen($path, 'w');
        $n = 0;
        for ($i = 0; $i < $rows; $i++) {
            $n += fputcsv($f, $row);
        }
        fclose($f);
        return $n;
    });
    clearstatcache();
    echo "fputcsv(): ", $n === $rows * $line && filesize($path) === $n ? "every row" : "wrong ($n)", "; ",
        $turns >= 2 ? "the others ran meanwhile" : "the others did not run ($turns turns)", "\n";
}));
unlink($path);
?>
--EXPECT--
fputcsv(): every row; the others ran meanwhile
