--TEST--
A coroutine that suspends inside an EH_THROW window (DirectoryIterator on a user stream wrapper) does not turn other coroutines' warnings into exceptions
--FILE--
<?php
class SlowDirectory {
    public $context;
    function dir_opendir($path, $options) {
        // Inside DirectoryIterator::__construct's EH_THROW window: wait
        // until the other coroutine has warned.
        $GLOBALS['inWindow'] = true;
        Async\await($GLOBALS['other']);
        return false;
    }
}
stream_wrapper_register('slow', 'SlowDirectory');

$opener = Async\spawn(function () {
    try {
        new DirectoryIterator('slow://dir');
    } catch (UnexpectedValueException $e) {
        echo "opener: ", get_class($e), "\n";
    }
});
$other = Async\spawn(function () {
    for ($i = 0; empty($GLOBALS['inWindow']) && $i < 1000; $i++) {
        Async\suspend();
    }
    try {
        echo $undefined;
        echo "other: the warning stayed a warning\n";
    } catch (Throwable $e) {
        echo "other: the warning became ", get_class($e), "\n";
    }
    set_error_handler(function ($no, $message) { echo "other's handler: $message\n"; return true; });
    trigger_error("other warns again", E_USER_WARNING);
    restore_error_handler();
});
Async\await($opener);
Async\await($other);
?>
--EXPECTF--
Warning: Undefined variable $undefined in %s on line %d
other: the warning stayed a warning
other's handler: other warns again
opener: UnexpectedValueException
