--TEST--
Async\signal() takes a Signal case or a number, its Future completes with the Signal case (the number when Signal has none), and a Future nobody holds any more ends its wait, so that it does not keep the program alive
--EXTENSIONS--
posix
--FILE--
<?php
$f = Async\signal(Async\Signal::SIGUSR1);
var_dump($f instanceof Async\Future);
posix_kill(getmypid(), SIGUSR1);
var_dump(Async\await($f));
$child = Async\signal(SIGCHLD);
posix_kill(getmypid(), SIGCHLD);
var_dump($child->await());
Async\signal(SIGUSR2);   // dropped at once
$kept = Async\signal(SIGHUP);
unset($kept);            // dropped later
echo "the script ends without waiting for SIGUSR2 or SIGHUP\n";
?>
--EXPECT--
bool(true)
enum(Async\Signal::SIGUSR1)
int(17)
the script ends without waiting for SIGUSR2 or SIGHUP
