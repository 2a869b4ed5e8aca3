--TEST--
Rules T2 and G1: TaskGroup::all(), race() and any() and Channel::recvAsync() return Async\Future, which await(), the await_*() functions and map() take
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(fn () => 1);
$g->spawn(fn () => 2);
foreach (['all' => $g->all(), 'race' => $g->race(), 'any' => $g->any()] as $name => $f) {
    echo $name, ": ", get_class($f), "\n";
}
echo json_encode($g->all()->map(fn ($r) => array_sum($r))->await()), "\n";
$ch = new Async\Channel(1);
$ch->send("v");
$f = $ch->recvAsync();
echo get_class($f), " ", Async\await_any_or_fail([$f]), "\n";
[$results] = Async\await_all([Async\Future::completed("a"), $g->race()]);
echo json_encode($results), "\n";
?>
--EXPECT--
all: Async\Future
race: Async\Future
any: Async\Future
3
Async\Future v
["a",1]
