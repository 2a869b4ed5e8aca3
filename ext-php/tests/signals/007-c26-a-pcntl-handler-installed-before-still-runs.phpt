--TEST--
A pcntl_signal() handler installed before Async\signal() starts watching the signal keeps running: one delivery reaches both
--EXTENSIONS--
posix
pcntl
--FILE--
<?php
pcntl_signal(SIGUSR1, function (int $signo) { echo "pcntl handler: $signo\n"; });
for ($round = 1; $round <= 2; $round++) {
    $waiter = Async\spawn(fn () => Async\await(Async\signal(SIGUSR1))->value);
    Async\spawn(function () { Async\delay(5); posix_kill(getmypid(), SIGUSR1); });
    echo "round $round, Async\\signal: ", Async\await($waiter), "\n";
    pcntl_signal_dispatch();
}
?>
--EXPECT--
round 1, Async\signal: 10
pcntl handler: 10
round 2, Async\signal: 10
pcntl handler: 10
