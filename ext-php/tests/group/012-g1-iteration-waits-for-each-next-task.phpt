--TEST--
Rule G1: iterating suspends until the next task completes; tasks spawned during the iteration are included
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawnWithKey('slow', function () { Async\delay(500); return 2; });
$g->spawnWithKey('fast', function () { Async\delay(1); return 1; });
$extra = false;
foreach ($g as $key => [$result, $error]) {
    echo "$key => $result\n";
    if (!$extra) {
        $extra = true;
        $g->spawnWithKey('added', fn() => 3);
    }
}
echo "iteration over\n";
?>
--EXPECT--
fast => 1
added => 3
slow => 2
iteration over
