--TEST--
Rule C16: a destructor may spawn into a scope and await it
--FILE--
<?php
class Flusher {
    public function __construct(private Async\Scope $scope) {}
    public function __destruct() {
        $this->scope->spawn(function () { Async\delay(5); echo "flushed\n"; });
        $this->scope->awaitCompletion(Async\timeout(60000));
        echo "destructor done\n";
    }
}
$f = new Flusher(new Async\Scope());
unset($f);
echo "after unset\n";
?>
--EXPECT--
flushed
destructor done
after unset
