--TEST--
Rule C16: a destructor running inside a coroutine may suspend and await
--FILE--
<?php
class Closer {
    function __destruct() {
        echo "closing\n";
        echo Async\await(Async\spawn(fn() => "closed")), "\n";
    }
}
Async\await(Async\spawn(function () { $c = new Closer; Async\suspend(); echo "body done\n"; }));
echo "end\n";
?>
--EXPECT--
body done
closing
closed
end
