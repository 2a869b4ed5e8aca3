--TEST--
Rule C21: timeout() and new Timeout() are FutureLike awaitables that complete after the delay
--FILE--
<?php
$t = Async\timeout(20);
$u = new Async\Timeout(1);
var_dump($t instanceof Async\Awaitable, $t instanceof Async\FutureLike, get_class($t));
var_dump($t->isCompleted());
Async\delay(40);
var_dump($t->isCompleted(), $u->isCompleted());
try { Async\timeout(-1); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { new Async\Timeout(-2); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { clone $t; } catch (Error $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
bool(true)
bool(true)
string(13) "Async\Timeout"
bool(false)
bool(true)
bool(true)
Async\timeout(): Argument #1 ($ms) must be greater than or equal to 0
Async\Timeout::__construct(): Argument #1 ($ms) must be greater than or equal to 0
Trying to clone an uncloneable object of class Async\Timeout
