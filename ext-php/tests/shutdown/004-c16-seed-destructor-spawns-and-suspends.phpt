--TEST--
Rule C16 (seed 001): destructors can spawn coroutines and suspend
--FILE--
<?php
use function Async\spawn;
use function Async\suspend;

class AsyncResource {
    public function __destruct() {
        // Destructors can spawn coroutines
        spawn(function() {
            echo "Async cleanup\n";
        });

        // Destructors can suspend
        suspend();
        echo "destructor done\n";
    }
}
$r = new AsyncResource;
unset($r);
echo "after unset\n";
$global = new AsyncResource; // destroyed at the end of the script
?>
--EXPECT--
Async cleanup
destructor done
after unset
Async cleanup
destructor done
