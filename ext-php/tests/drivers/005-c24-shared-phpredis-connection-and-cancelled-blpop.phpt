--TEST--
Rule C24: a phpredis connection shared by two coroutines: the second one's command is refused with a warning naming both and, as its request would be answered to the first, the connection is closed (both fail, phpredis reconnects and the next calls get their own replies); after a cancelled BLPOP the next get() calls get their own replies too
--EXTENSIONS--
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('redis');
?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';
use function Async\spawn;
use function Async\await;

function attempt(callable $f): string
{
    try {
        return var_export($f(), true);
    } catch (Throwable $e) {
        return get_class($e);
    }
}

$key = 'tasync-test-c24-' . getmypid();
$r = services_redis();
$r->set("$key-x", "value of x");

$a = spawn(fn() => attempt(fn() => $r->blPop(["$key-list"], 2)));
$b = spawn(fn() => attempt(fn() => $r->get("$key-x")));
[$first, $second] = [await($a), await($b)];
echo "first: $first\nsecond: $second\n";
for ($i = 0; $i < 2; $i++) {
    echo "then: ", attempt(fn() => $r->get("$key-x")), "\n";
}

// A cancelled BLPOP whose reply comes later must not be read by get().
$pop = spawn(fn() => $r->blPop(["$key-list"], 2));
try {
    await($pop, Async\timeout(100));
} catch (Async\AwaitCancelledException) {
    echo "BLPOP still waiting after 0.1 s\n";
}
$pop->cancel();
echo "cancelled BLPOP: ", attempt(fn() => await($pop)), "\n";
$pusher = services_redis();
$pusher->rPush("$key-list", "pushed");
Async\delay(50);
for ($i = 0; $i < 3; $i++) {
    echo "get: ", attempt(fn() => $r->get("$key-x")), "\n";
}
$pusher->del("$key-list", "$key-x");
?>
--EXPECTF--
Warning: Redis::get(): Coroutine #%d cannot read this stream: coroutine #%d is reading it; the connection is closed, as what coroutine #%d wrote would be answered to the other one in %s on line %d
first: RedisException
second: RedisException
then: 'value of x'
then: 'value of x'
BLPOP still waiting after 0.1 s
cancelled BLPOP: RedisException
get: 'value of x'
get: 'value of x'
get: 'value of x'
