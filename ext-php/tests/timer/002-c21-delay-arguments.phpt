--TEST--
Rule C21: delay() (alias Async\sleep) takes a non-negative int
--FILE--
<?php
try { Async\delay(-1); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { Async\sleep(-5); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { Async\delay("abc"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
Async\delay(0);
Async\sleep(1);
echo "ok\n";
?>
--EXPECT--
Async\delay(): Argument #1 ($ms) must be greater than or equal to 0
Async\sleep(): Argument #1 ($ms) must be greater than or equal to 0
Async\delay(): Argument #1 ($ms) must be of type int, string given
ok
