--TEST--
Rule G1: all() fails with the first error in completion order, once no task is left
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () { Async\delay(30); echo "slow task finished\n"; return 1; });
$g->spawn(function () { Async\delay(10); throw new LogicException("second to fail"); });
$g->spawn(function () { throw new RuntimeException("first to fail"); });
try {
    Async\await($g->all());
} catch (Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECT--
slow task finished
RuntimeException: first to fail
