--TEST--
A suspended coroutine's first VM stack page lives on its C stack (not in memory_limit); deeper code grows the VM stack from Zend MM and gives it back
--INI--
memory_limit=64M
--FILE--
<?php
use function Async\spawn;
use function Async\suspend;
use function Async\await_all;

// 2000 coroutines suspended in a shallow frame: their VM stacks take no
// Zend MM memory, so each costs far less than one 4 KiB page of
// memory_get_usage() (its Coroutine object and the array slot).
$before = memory_get_usage();
$cs = [];
for ($i = 0; $i < 2000; $i++) {
    $cs[] = spawn(static function (int $i) { suspend(); return $i; }, $i);
}
suspend();
$per = (memory_get_usage() - $before) / 2000;
echo $per < 2048 ? "shallow coroutines cost less than 2 KiB each\n" : "shallow coroutines cost $per bytes each\n";
[$results] = await_all($cs);
echo array_sum($results), "\n";

// Recursion far beyond the first page: the stack grows page by page and
// every frame keeps its values across suspensions.
function depth(int $n, int $acc): int
{
    if ($n === 0) {
        suspend();
        return $acc;
    }
    $local = $n * 2;
    return depth($n - 1, $acc + $local - $n);
}
$deep = [];
for ($i = 0; $i < 4; $i++) {
    $deep[] = spawn(static fn () => depth(3000, 0));
}
suspend();
$grown = memory_get_usage() - $before;
// Under valgrind the suite runs with USE_ZEND_ALLOC=0: PHP then counts no
// memory, and only the frames' values are checked.
$counted = getenv('USE_ZEND_ALLOC') !== '0';
echo !$counted || $grown > 4 * 3000 * 16 ? "deep coroutines grew their VM stacks\n" : "deep coroutines took only $grown bytes\n";
[$results] = await_all($deep);
echo implode(',', $results), "\n";
unset($cs, $deep, $results);
$left = memory_get_usage() - $before;
echo $left < 64 * 1024 ? "the extra pages were given back\n" : "$left bytes left\n";
?>
--EXPECT--
shallow coroutines cost less than 2 KiB each
1999000
deep coroutines grew their VM stacks
4501500,4501500,4501500,4501500
the extra pages were given back
