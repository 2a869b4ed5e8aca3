--TEST--
Rule C18: gethostbyname(), gethostbynamel() and gethostbyaddr() inside coroutines give PHP's results
--FILE--
<?php
use function Async\spawn;
use function Async\await;

$expect = [gethostbyname('localhost'), gethostbynamel('localhost'), gethostbyname('127.0.0.1'), gethostbyaddr('127.0.0.1')];
$got = await(spawn(fn() => [gethostbyname('localhost'), gethostbynamel('localhost'), gethostbyname('127.0.0.1'), gethostbyaddr('127.0.0.1')]));
var_dump($got === $expect);
var_dump($got[0], $got[2]);
?>
--EXPECT--
bool(true)
string(9) "127.0.0.1"
string(9) "127.0.0.1"
