--TEST--
Rule C15: the shutdown exit() starts does not cancel again a coroutine that caught its cancellation; left waiting, it ends in the deadlock report (found by php-random)
--FILE--
<?php
// A cancellation is delivered once (C7): the shutdown's is not delivered to
// a coroutine that caught an earlier one. Here it then waits for a producer
// the shutdown kept from starting, so nothing can wake it: the deadlock
// report ends the program with status 255 instead of exit()'s 3 (the RFC:
// do not suppress CancellationError). php-random's exit programs met it.
use function Async\{spawn, suspend};
use Async\{Channel, Scope};

register_shutdown_function(function () { echo "shutdown function\n"; });
$helpers = new Scope();
$consumer = spawn(function () use ($helpers) {
    try {
        suspend();
    } catch (Async\CancellationError $e) {
        echo "the consumer swallows its cancellation\n";
    }
    $ch = new Channel(1);
    $helpers->spawn(function () use ($ch) {
        echo "never runs\n";
        $ch->close();
    });
    foreach ($ch as $v) {
    }
    echo "never reached\n";
});
suspend();
$consumer->cancel();
suspend();
echo "exit\n";
exit(3);
?>
--EXPECTF--
the consumer swallows its cancellation
exit

Warning: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s on line %d

Warning: Coroutine 1 spawned at %s:%d is suspended at %s:%d, receiving from channel %d (capacity 1) created at %s:%d in %s on line %d

Warning: Coroutines and scopes at the deadlock:
global scope: 1 active, 0 zombie
  coroutine 0 (main) [cancelled]: waiting for the end of the program
  coroutine 1 spawned at %s:%d [cancelled]: suspended at %s:%d, receiving from channel %d (capacity 1) created at %s:%d
scope 1 created at %s:%d: 0 active, 0 zombie in %s on line %d

Fatal error: Uncaught Async\DeadlockError: Deadlock detected: no active coroutines, 1 coroutines in waiting in %s:%d
Stack trace:
#0 {main}
  thrown in %s on line %d
shutdown function
