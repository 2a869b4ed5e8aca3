--TEST--
Async\signal() returns a Future that completes when the signal arrives, with its Async\Signal case, without blocking the other coroutines; one delivery completes every waiting Future, and one nobody waited for is kept for the next wait
--EXTENSIONS--
posix
--FILE--
<?php
$waiter = Async\spawn(fn () => Async\await(Async\signal(SIGUSR1)));
$ticks = 0;
$ticker = Async\spawn(function () use (&$ticks) {
    for ($i = 0; $i < 3; $i++) {
        Async\delay(5);
        $ticks++;
    }
    echo "sending SIGUSR1\n";
    posix_kill(getmypid(), SIGUSR1);
});
var_dump(Async\await($waiter) === Async\Signal::SIGUSR1);
var_dump($ticks);   // the waiter did not block the others

$a = Async\signal(SIGUSR2);
$b = Async\spawn(fn () => Async\await(Async\signal(Async\Signal::SIGUSR2)));
Async\spawn(function () { Async\delay(10); posix_kill(getmypid(), SIGUSR2); });
var_dump(Async\await($a), Async\await($b));

posix_kill(getmypid(), SIGUSR2);  // nobody waits: kept, not fatal
var_dump(Async\await(Async\signal(SIGUSR2)));
echo "alive\n";
?>
--EXPECT--
sending SIGUSR1
bool(true)
int(3)
enum(Async\Signal::SIGUSR2)
enum(Async\Signal::SIGUSR2)
enum(Async\Signal::SIGUSR2)
alive
