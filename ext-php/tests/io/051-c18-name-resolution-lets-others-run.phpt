--TEST--
Rule C18: a coroutine resolving a name waits on the thread pool while the others run
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$resolver = spawn(function () {
    $ip = gethostbyname('localhost');
    echo "resolved: $ip\n";
});
spawn(function () { echo "another coroutine runs during the lookup\n"; });
await($resolver);
echo "in main: ", gethostbyname('localhost'), "\n";
?>
--EXPECT--
another coroutine runs during the lookup
resolved: 127.0.0.1
in main: 127.0.0.1
