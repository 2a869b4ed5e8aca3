--TEST--
Rule G1: any() completes with the first success, skipping errors; fails with the first error when none succeeds
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () { Async\delay(1); throw new RuntimeException("first failure"); });
$g->spawn(function () { Async\delay(300); return "a success"; });
echo Async\await($g->any()), "\n";
$h = new Async\TaskGroup();
$h->spawn(function () { Async\delay(300); throw new LogicException("later failure"); });
$h->spawn(function () { Async\delay(1); throw new RuntimeException("earlier failure"); });
try {
    Async\await($h->any());
} catch (Exception $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECT--
a success
RuntimeException: earlier failure
