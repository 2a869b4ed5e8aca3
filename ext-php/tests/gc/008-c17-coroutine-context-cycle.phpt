--TEST--
Rule C17: a cycle through a coroutine's Context object is collected after the coroutine completed
--FILE--
<?php
class Holder { public $ctx; public function __destruct() { echo "holder destroyed\n"; } }
$c = Async\spawn(function () {
    $h = new Holder;
    $h->ctx = Async\coroutineContext();
    Async\coroutineContext()->set('h', $h);
    return $h->ctx;
});
Async\await($c);
unset($c);
gc_collect_cycles();
echo "end\n";
?>
--EXPECT--
holder destroyed
end
