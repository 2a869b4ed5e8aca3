--TEST--
A pcntl_signal() handler installed after Async\signal() started watching the signal does not displace the runtime's: one delivery reaches both, and pcntl_signal(SIG_DFL) while watched does not make the signal fatal
--EXTENSIONS--
posix
pcntl
--FILE--
<?php
function round_trip(int $signo): void {
    $waiter = Async\spawn(fn () => Async\await(Async\signal($signo))->value);
    Async\spawn(function () use ($signo) { Async\delay(5); posix_kill(getmypid(), $signo); });
    echo "Async\\signal: ", Async\await($waiter), "\n";
    pcntl_signal_dispatch();
}
round_trip(SIGUSR1);   // the runtime watches SIGUSR1 from now on
pcntl_signal(SIGUSR1, function (int $signo) { echo "pcntl handler: $signo\n"; });
round_trip(SIGUSR1);
round_trip(SIGUSR1);
pcntl_signal(SIGUSR1, SIG_DFL);
round_trip(SIGUSR1);
echo "alive\n";
?>
--EXPECT--
Async\signal: 10
Async\signal: 10
pcntl handler: 10
Async\signal: 10
pcntl handler: 10
Async\signal: 10
alive
