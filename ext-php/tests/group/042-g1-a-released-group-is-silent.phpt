--TEST--
Rule G1: releasing a group is silent: a task not started yet never starts, running ones finish as zombies, even when the group goes while a coroutine ends
--FILE--
<?php
// Delays wide apart (1, 200, 600 ms), so that the order holds under valgrind.
function first_of_three(): string {
    $g = new Async\TaskGroup(2);
    $g->spawn(function () { Async\delay(1); return "winner"; });
    $g->spawn(function () { Async\delay(600); echo "loser finished as a zombie\n"; return "loser"; });
    $g->spawn(function () { Async\delay(600); echo "the task that got the winner's slot finished too\n"; });
    $g->spawn(function () { echo "must never start\n"; });
    return Async\await($g->race());
}
echo first_of_three(), "\n";
$g = new Async\TaskGroup();
$g->spawn(function () { Async\delay(200); echo "a task of a group dropped by a finishing coroutine finished\n"; });
$c = Async\spawn(function () use ($g) { Async\delay(1); });
unset($g);
Async\await($c);
unset($c);
echo "end of script\n";
?>
--EXPECT--
winner
end of script
a task of a group dropped by a finishing coroutine finished
loser finished as a zombie
the task that got the winner's slot finished too
