--TEST--
Rule G1: dropping a TaskGroup after race() is silent: the loser finishes as a zombie, no warning
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
--EXPECT--
winner
race() returned
loser finishes anyway
