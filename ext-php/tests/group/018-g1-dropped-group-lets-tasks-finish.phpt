--TEST--
Rule G1/S8: dropping a TaskGroup with running tasks disposes its scope safely (chosen: the group is a scope, S8): they finish as zombies
--FILE--
<?php
function race(): string {
    $g = new Async\TaskGroup();
    $g->spawn(function () { Async\delay(5); return "winner"; });
    $g->spawn(function () { Async\delay(500); echo "loser finishes anyway\n"; return "loser"; });
    return Async\await($g->race());
}
echo race(), "\n";
echo "race() returned\n";
?>
--EXPECTF--
Warning: Coroutine is zombie at %s:5 in Scope disposed at %s:8 in %s on line 8
winner
race() returned
loser finishes anyway
