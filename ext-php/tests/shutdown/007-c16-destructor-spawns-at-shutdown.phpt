--TEST--
Rule C16: a coroutine spawned by a destructor at the end of the request still runs
--FILE--
<?php
class Later { function __destruct() { Async\spawn(function () { Async\delay(1); echo "spawned by a destructor at shutdown\n"; }); } }
$keep = new Later;
echo "end of script\n";
?>
--EXPECT--
end of script
spawned by a destructor at shutdown
