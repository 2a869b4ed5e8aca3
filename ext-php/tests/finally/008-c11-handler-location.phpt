--TEST--
Rule C11/C12: a handler's coroutine is spawned where onFinally() was called; getCoroutines() lists it while it waits to run
--FILE--
<?php
$c = Async\spawn(fn() => 1);
Async\await($c);
$c->onFinally(function () { echo "ran\n"; });
$handlers = array_filter(Async\getCoroutines(), fn($x) => $x !== Async\currentCoroutine());
$h = array_values($handlers)[0];
echo basename($h->getSpawnFileAndLine()[0]), ":", $h->getSpawnFileAndLine()[1], "\n";
var_dump($h->isQueued());
Async\await($h);
?>
--EXPECTF--
%s.php:4
bool(true)
ran
