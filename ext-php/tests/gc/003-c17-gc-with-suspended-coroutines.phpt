--TEST--
Rule C17: gc_collect_cycles() while coroutines are suspended keeps their values alive
--FILE--
<?php
$cs = [];
for ($i = 0; $i < 20; $i++) {
    $cs[] = Async\spawn(function () use ($i) {
        $a = new stdClass; $b = new stdClass; $a->b = $b; $b->a = $a; $a->i = $i;
        Async\suspend();
        gc_collect_cycles();
        Async\suspend();
        return $a->b->a->i;
    });
}
Async\suspend();
gc_collect_cycles();
$sum = 0;
foreach ($cs as $c) $sum += Async\await($c);
echo $sum, "\n";
unset($cs, $c);
gc_collect_cycles();
echo "ok\n";
?>
--EXPECT--
190
ok
