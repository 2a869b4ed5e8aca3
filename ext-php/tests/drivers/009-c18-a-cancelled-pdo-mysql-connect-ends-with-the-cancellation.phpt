--TEST--
C18: a PDO MySQL connect interrupted by the cancellation of its coroutine ends with the cancellation (the driver's PDOException as its previous), not with a PDOException that would hide it
--EXTENSIONS--
mysqlnd
pdo
pdo_mysql
--FILE--
<?php
// A server that accepts and never greets: the connect waits in the coroutine.
$server = stream_socket_server('tcp://127.0.0.1:0');
$port = parse_url('tcp://' . stream_socket_get_name($server, false), PHP_URL_PORT);
$silent = Async\spawn(function () use ($server) {
    $conn = stream_socket_accept($server, 5);
    try {
        Async\delay(5000);
    } catch (Async\CancellationError) {
    }
});
$connect = Async\spawn(function () use ($port) {
    new PDO("mysql:host=127.0.0.1;port=$port", 'user', 'password', [PDO::ATTR_TIMEOUT => 5]);
    echo "not reached\n";
});
Async\delay(30);
$connect->cancel();
try {
    Async\await($connect);
} catch (Throwable $e) {
    echo get_class($e), ", previous: ", get_class($e->getPrevious()), "\n";
}
var_dump($connect->isCancelled());
$silent->cancel();
?>
--EXPECT--
Async\CancellationError, previous: PDOException
bool(true)
