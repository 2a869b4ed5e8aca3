--TEST--
Rule T1: capacity(), count(), isEmpty() and isFull() describe the buffer; the constructor refuses negative sizes and timeouts
--FILE--
<?php
$ch = new Async\Channel(3);
echo $ch->capacity(), " ", count($ch), " ", var_export($ch->isEmpty(), true), " ", var_export($ch->isFull(), true), "\n";
$ch->send(1);
$ch->send(2);
$ch->send(3);
echo count($ch), " ", var_export($ch->isEmpty(), true), " ", var_export($ch->isFull(), true), "\n";
$r = new Async\Channel();
echo $r->capacity(), " ", count($r), " ", var_export($r->isFull(), true), "\n";
foreach ([[-1], [0, -1], [0, 0, -1]] as $args) {
    try {
        new Async\Channel(...$args);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
$c = new Async\Channel(noConsumerTimeout: 10, hardTimeouts: true);
var_dump($c instanceof Async\Awaitable, $c instanceof Countable, $c instanceof IteratorAggregate);
?>
--EXPECT--
3 0 true false
3 false true
0 0 false
Async\Channel::__construct(): Argument #1 ($capacity) must be between 0 and 2147483647
Async\Channel::__construct(): Argument #2 ($noProducerTimeout) must be between 0 and 2147483647
Async\Channel::__construct(): Argument #3 ($noConsumerTimeout) must be between 0 and 2147483647
bool(true)
bool(true)
bool(true)
