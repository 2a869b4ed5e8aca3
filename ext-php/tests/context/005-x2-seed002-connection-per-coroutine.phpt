--TEST--
Rule X2 (seed 002, the ConnectionPool example): a value in a coroutine's context is released when the coroutine completes
--DESCRIPTION--
The seed's Key class and PDO are replaced by an object key and a fake
connection; the proxy's destructor returns the connection to the pool once
the coroutine is done, as the seed intends.
--FILE--
<?php
final class Connection { public function __construct(public int $id) {} }

final class ConnectionProxy
{
    public function __construct(public Connection $connection) {}
    public function __destruct() { getGlobalConnectionPool()->releaseConnection($this->connection); }
}

final class ConnectionPool
{
    private array $pool = [];
    private int $made = 0;

    public function getConnection(): ConnectionProxy
    {
        if (!empty($this->pool)) {
            return new ConnectionProxy(array_pop($this->pool));
        }
        return new ConnectionProxy(new Connection(++$this->made));
    }

    public function releaseConnection(Connection $connection): void
    {
        echo "connection {$connection->id} back in the pool\n";
        $this->pool[] = $connection;
    }
}

function getGlobalConnectionPool(): ConnectionPool
{
    static $pool = null;
    return $pool ??= new ConnectionPool();
}

function getDb(): ConnectionProxy
{
    static $key = new stdClass(); // a key object only this function knows
    $context = Async\coroutineContext();
    if ($context->has($key)) {
        return $context->get($key);
    }
    $connection = getGlobalConnectionPool()->getConnection();
    $context->set($key, $connection);
    return $connection;
}

function printUser(int $id): void
{
    $db = getDb();
    Async\suspend();
    echo "user $id read with connection {$db->connection->id}, again: ", getDb() === $db ? "same" : "other", "\n";
}

$a = Async\spawn(printUser(...), 1);
$b = Async\spawn(printUser(...), 2);
Async\await($a);
Async\await($b);
Async\await(Async\spawn(printUser(...), 3));
?>
--EXPECT--
user 1 read with connection 1, again: same
connection 1 back in the pool
user 2 read with connection 2, again: same
connection 2 back in the pool
user 3 read with connection 2, again: same
connection 2 back in the pool
