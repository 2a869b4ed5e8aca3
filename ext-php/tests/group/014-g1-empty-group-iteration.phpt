--TEST--
Rule G1: iterating a group without tasks ends at once
--FILE--
<?php
$g = new Async\TaskGroup();
foreach ($g as $k => $v) echo "never\n";
echo "nothing to iterate\n";
?>
--EXPECT--
nothing to iterate
