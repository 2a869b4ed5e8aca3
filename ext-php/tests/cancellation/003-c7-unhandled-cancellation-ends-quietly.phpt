--TEST--
Rule C7: an unhandled CancellationError ends the coroutine as cancelled, not as an uncaught error
--FILE--
<?php
$c = Async\spawn(function () { Async\delay(1000); echo "never\n"; });
Async\suspend();
$c->cancel(new Async\CancellationError("custom reason"));
Async\suspend();
var_dump($c->isCancelled(), $c->getException()->getMessage());
echo "end\n";
?>
--EXPECT--
bool(true)
string(13) "custom reason"
end
