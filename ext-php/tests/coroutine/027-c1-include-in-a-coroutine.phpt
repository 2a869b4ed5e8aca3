--TEST--
Rule C1: include and eval run inside a coroutine
--FILE--
<?php
$file = __DIR__ . '/027-included.inc';
file_put_contents($file, '<?php Async\suspend(); return "included " . __LINE__;');
echo Async\await(Async\spawn(fn() => include $file)), "\n";
echo Async\await(Async\spawn(fn() => eval('Async\suspend(); return "eval";'))), "\n";
$c = Async\spawn(fn() => eval('Async\suspend(); Async\suspend();'));
Async\suspend();
echo basename($c->getSuspendFileAndLine()[0]) !== '' ? "has location\n" : "no location\n";
Async\await($c);
?>
--CLEAN--
<?php @unlink(__DIR__ . '/027-included.inc'); ?>
--EXPECT--
included 1
eval
has location
