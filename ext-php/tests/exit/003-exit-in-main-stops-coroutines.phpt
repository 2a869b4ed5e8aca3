--TEST--
exit() in the main flow: queued and suspended coroutines do not run on
--FILE--
<?php
register_shutdown_function(function () { echo "shutdown\n"; });
Async\spawn(function () { echo "started\n"; Async\suspend(); echo "never\n"; });
Async\suspend();
Async\spawn(function () { echo "never starts\n"; });
echo "main exits\n";
exit(0);
?>
--EXPECT--
started
main exits
shutdown
