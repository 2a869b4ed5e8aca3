--TEST--
Rule G1: race() completes with the outcome of the first task to complete, an error included
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () { Async\delay(20); return "slow"; });
$g->spawn(function () { Async\delay(5); throw new RuntimeException("fast failure"); });
try {
    Async\await($g->race());
} catch (RuntimeException $e) {
    echo "race: ", $e->getMessage(), "\n";
}
try {
    Async\await($g->all());
} catch (RuntimeException $e) {
    echo "all: ", $e->getMessage(), "\n";
}
$h = new Async\TaskGroup();
$h->spawn(function () { Async\delay(5); return "fast"; });
$h->spawn(function () { Async\delay(20); throw new RuntimeException("slow failure"); });
echo "race: ", Async\await($h->race()), "\n";
try {
    Async\await($h->all());
} catch (RuntimeException $e) {
    echo "all: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
race: fast failure
all: fast failure
race: fast
all: slow failure
