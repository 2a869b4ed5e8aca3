--TEST--
A compile error in a file included inside a coroutine ends the request as in plain PHP
--FILE--
<?php
file_put_contents(__DIR__ . '/007-included.php', "<?php\nfunction twice() {}\nfunction twice() {}\n");
register_shutdown_function(fn() => print("shutdown ran\n"));
Async\spawn(function () {
    try { Async\delay(5000); echo "other continued\n"; } finally { echo "other finally\n"; }
});
$c = Async\spawn(function () {
    Async\delay(5);
    include __DIR__ . '/007-included.php';
    echo "after the include\n";
});
Async\await($c);
echo "main continued after fatal\n";
?>
--CLEAN--
<?php @unlink(__DIR__ . '/007-included.php'); ?>
--EXPECTF--
Fatal error: Cannot redeclare twice() (previously declared in %s007-included.php:2) in %s007-included.php on line 3
shutdown ran
