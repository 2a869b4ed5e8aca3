--TEST--
Rule S7/S8 (seed 003, "Binding to an Object"): dispose() in a destructor cancels the service's coroutines
--DESCRIPTION--
sendEmail() is a stand-in that waits. The closure is static: one made in a
method binds $this, and the coroutines would keep the service alive.
--FILE--
<?php
function sendEmail(int $userId): void {
    try {
        Async\delay(60000);
        echo "mail sent to $userId\n";
    } catch (Async\CancellationError $e) {
        echo "mail to $userId cancelled\n";
    }
}

class UserService
{
    private Async\Scope $scope;

    public function __construct() {
        $this->scope = new Async\Scope();
    }

    public function sendNotification($userId) {
        $this->scope->spawn(static function() use ($userId) {
            sendEmail($userId);
        });
    }

    public function __destruct() {
        $this->scope->dispose();
    }
}

$service = new UserService();
$service->sendNotification(123);
$service->sendNotification(456);
Async\suspend();

// Delete the service - all its coroutines are automatically cancelled
unset($service);
Async\suspend();
echo "end\n";
?>
--EXPECTF--
Warning: Coroutine spawned at %s:20 is cancelled by the Scope disposed at %s:26 in %s on line 26

Warning: Coroutine spawned at %s:20 is cancelled by the Scope disposed at %s:26 in %s on line 26
mail to 123 cancelled
mail to 456 cancelled
end
