--TEST--
Rule X2: coroutineContext() is private to each coroutine, the same object within one, and its values are released when it completes
--FILE--
<?php
class Res { public function __construct(public string $n) {} public function __destruct() { echo "{$this->n} released\n"; } }
$c = Async\spawn(function () {
    $ctx = Async\coroutineContext();
    var_dump($ctx === Async\coroutineContext(), $ctx === Async\coroutine_context());
    $ctx->set('res', new Res("first coroutine's value"));
    Async\suspend();
    echo "first coroutine ends\n";
});
$d = Async\spawn(function () {
    var_dump(Async\coroutineContext()->has('res'));
});
Async\await($c);
Async\await($d);
echo "end\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
first coroutine ends
first coroutine's value released
end
