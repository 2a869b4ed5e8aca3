--TEST--
Rules T2 and S10: a future's failure still unobserved when the program ends is reported as an unobserved coroutine failure in the global scope: the program ends with it uncaught
--FILE--
<?php
$state = new Async\FutureState();
$future = new Async\Future($state);
$state->error(new RuntimeException("left behind"));
echo "end of script\n";
?>
--EXPECTF--
end of script
%AFatal error: Uncaught RuntimeException: left behind in %s:4
%A
