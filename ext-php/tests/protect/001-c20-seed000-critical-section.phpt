--TEST--
Rule C20 (seed 000, "Critical section"): protect() runs the closure with cancellation held back
--DESCRIPTION--
The seed writes to a file it did not open; php://output stands for it.
--FILE--
<?php
use function Async\spawn;

function task(): void {
    $file = fopen('php://output', 'w');
    Async\protect(fn() => fwrite($file, "Critical data\n"));
}

Async\await(spawn(task(...)));
?>
--EXPECT--
Critical data
