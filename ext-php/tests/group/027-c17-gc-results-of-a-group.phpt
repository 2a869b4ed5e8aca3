--TEST--
Rule C17: a group's results stay alive through a Future while the group object is gone; the collector takes cycles through them
--FILE--
<?php
class Box { public $future; }
function make(): Async\Future {
    $g = new Async\TaskGroup();
    $g->spawn(fn() => new Box);
    return $g->all();
}
$all = make();
$results = Async\await($all);
$results[0]->future = $all;  // result -> future -> group -> result
unset($all, $results);
gc_collect_cycles();
echo "collected without errors\n";
?>
--EXPECT--
collected without errors
