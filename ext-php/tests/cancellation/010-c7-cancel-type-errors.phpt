--TEST--
Rule C7: cancel() accepts only a CancellationError
--FILE--
<?php
$c = Async\spawn(fn() => 1);
try { $c->cancel(new Exception("no")); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
try { $c->cancel("no"); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
$c->cancel(new Async\AwaitCancelledException("subclass is fine"));
var_dump($c->isCancelled());
class MyCancellation extends Async\CancellationError {}
$d = Async\spawn(fn() => 1);
$d->cancel(new MyCancellation("user subclass"));
try { Async\await($d); } catch (MyCancellation $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
?>
--EXPECT--
Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\CancellationError, Exception given
Async\Coroutine::cancel(): Argument #1 ($cancellation) must be of type ?Async\CancellationError, string given
bool(true)
MyCancellation: user subclass
