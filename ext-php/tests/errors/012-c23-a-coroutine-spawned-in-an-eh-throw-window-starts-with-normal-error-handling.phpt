--TEST--
A coroutine spawned inside an EH_THROW window starts with normal error handling
--FILE--
<?php
class Spawning {
    public $context;
    public static $child;
    function dir_opendir($path, $options) {
        self::$child = Async\spawn(function () {
            try {
                trigger_error("the child warns", E_USER_WARNING);
                echo "child: the warning stayed a warning\n";
            } catch (Throwable $e) {
                echo "child: the warning became ", get_class($e), "\n";
            }
        });
        Async\delay(10);
        return false;
    }
}
stream_wrapper_register('spawning', 'Spawning');
try {
    new DirectoryIterator('spawning://dir');
} catch (UnexpectedValueException $e) {
    echo "main: ", get_class($e), "\n";
}
Async\await(Spawning::$child);
?>
--EXPECTF--
Warning: the child warns in %s on line %d
child: the warning stayed a warning
main: UnexpectedValueException
