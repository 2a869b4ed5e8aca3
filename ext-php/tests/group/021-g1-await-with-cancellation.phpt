--TEST--
Rule G1/C5: awaiting a group's Future with a cancellation that fires first throws AwaitCancelledException; the tasks go on
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () { Async\delay(30); return "done"; });
try {
    Async\await($g->all(), Async\timeout(1));
} catch (Async\AwaitCancelledException) {
    echo "gave up\n";
}
var_dump(Async\await($g->all()));
?>
--EXPECT--
gave up
array(1) {
  [0]=>
  string(4) "done"
}
