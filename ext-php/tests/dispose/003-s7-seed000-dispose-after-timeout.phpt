--TEST--
Rule S7 (seed 000, the Service class): disposeAfterTimeout() in a destructor: a zombie until the deadline, then cancelled
--DESCRIPTION--
Periods shortened: the coroutine prints after 50 ms and would print again
after 1 s, the scope is cancelled 200 ms after it was disposed; the seed's
blocking sleep(1) in the main flow is Async\delay(10) (C18). The closure
given to spawn() is static: a closure made in a method binds $this, and the
coroutine holding it would keep $service alive past unset().
--FILE--
<?php
use Async\Scope;
use function Async\spawn;

class Service {
    private Scope $scope;

    public function __construct() {
        $this->scope = new Scope();
    }

    public function __destruct() {
        $this->scope->disposeAfterTimeout(200);
    }

    public function run(): void {
        $this->scope->spawn(static function() {
            spawn(function() {
                Async\delay(50);
                echo "Task 2\n";
                Async\delay(1000);
                echo "Task 2 next line never executed\n";
            });
            echo "Task 1\n";
        });
    }
}

$service = new Service();
$service->run();
Async\delay(10);
unset($service);
?>
--EXPECTF--
Task 1

Warning: Coroutine is zombie at %s:18 in Scope disposed at %s:13 in %s on line 13
Task 2
