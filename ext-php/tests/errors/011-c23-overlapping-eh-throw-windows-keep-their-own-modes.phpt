--TEST--
Two overlapping EH_THROW windows in two coroutines keep their own exception classes and both end in normal error handling
--DESCRIPTION--
The directory window opens first, the file window opens inside it, the
directory window closes first: a shared mode would give the directory the
file's exception class and leave the file coroutine throwing afterwards.
--FILE--
<?php
class Slow {
    public $context;
    function dir_opendir($path, $options) {
        $GLOBALS['dirIn'] = true;
        for ($i = 0; empty($GLOBALS['fileIn']) && $i < 1000; $i++) {
            Async\suspend();
        }
        return false;
    }
    function url_stat($path, $flags) { return false; }
    function stream_open($path, $mode, $options, &$opened) {
        $GLOBALS['fileIn'] = true;
        for ($i = 0; empty($GLOBALS['dirDone']) && $i < 1000; $i++) {
            Async\suspend();
        }
        return false;
    }
}
stream_wrapper_register('slow', 'Slow');
set_error_handler(function ($no, $message) { echo "handler: $message\n"; return true; });

$dir = Async\spawn(function () {
    try { new DirectoryIterator('slow://dir'); } catch (Throwable $e) { echo "dir: ", get_class($e), "\n"; }
    trigger_error("dir warns after its window", E_USER_WARNING);
    $GLOBALS['dirDone'] = true;
});
$file = Async\spawn(function () {
    for ($i = 0; empty($GLOBALS['dirIn']) && $i < 1000; $i++) {
        Async\suspend();
    }
    try { new SplFileObject('slow://file'); } catch (Throwable $e) { echo "file: ", get_class($e), "\n"; }
    trigger_error("file warns after its window", E_USER_WARNING);
});
Async\await($dir);
Async\await($file);
trigger_error("main warns at the end", E_USER_WARNING);
?>
--EXPECT--
dir: UnexpectedValueException
handler: dir warns after its window
file: RuntimeException
handler: file warns after its window
handler: main warns at the end
