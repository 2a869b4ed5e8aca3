--TEST--
Rule C16: a destructor run at the end of the script may suspend and await a scope's work
--FILE--
<?php
class Service {
    private Async\Scope $scope;
    public function __construct() { $this->scope = new Async\Scope(); }
    public function start(): void { $this->scope->spawn(static function () { Async\delay(60000); }); }
    public function __destruct() {
        $this->scope->cancel();
        $this->scope->awaitAfterCancellation(null, Async\timeout(60000));
        echo "service stopped in its destructor\n";
    }
}
$s = new Service();
$s->start();
Async\suspend();
echo "script ends\n";
exit;
?>
--EXPECT--
script ends
service stopped in its destructor
