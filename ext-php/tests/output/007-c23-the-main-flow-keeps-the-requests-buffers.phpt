--TEST--
The main flow keeps the request's own buffers (output_buffering); coroutines write past them to the SAPI
--INI--
output_buffering=4096
--FILE--
<?php
echo "main level ", ob_get_level(), "\n";
$c = Async\spawn(function () {
    echo "coroutine level ", ob_get_level(), "\n";
});
Async\await($c);
echo "main level ", ob_get_level(), "\n";
?>
--EXPECT--
coroutine level 0
main level 1
main level 1
