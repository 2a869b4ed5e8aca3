--TEST--
ob_get_level, ob_get_status, ob_get_length, ob_list_handlers and ob_get_flush answer for the current coroutine
--FILE--
<?php
ob_start(null, 0, PHP_OUTPUT_HANDLER_STDFLAGS);
echo "main";
$a = Async\spawn(function () {
    ob_start(fn($b) => $b);
    ob_start();
    echo "abc";
    Async\delay(10);
    $level = ob_get_level();
    $length = ob_get_length();
    $handlers = ob_list_handlers();
    $status = ob_get_status(true);
    $inner = ob_get_clean();
    $outer = ob_get_clean();
    return [$level, $length, $handlers, count($status), $inner, $outer];
});
$b = Async\spawn(function () {
    Async\delay(5);
    return [ob_get_level(), ob_get_length(), ob_list_handlers(), ob_get_status()];
});
[$ra, $rb] = [Async\await($a), Async\await($b)];
$main = [ob_get_level(), ob_get_length(), ob_list_handlers()];
ob_end_clean();
var_dump($ra, $rb, $main);
?>
--EXPECT--
array(6) {
  [0]=>
  int(2)
  [1]=>
  int(3)
  [2]=>
  array(2) {
    [0]=>
    string(17) "Closure::__invoke"
    [1]=>
    string(22) "default output handler"
  }
  [3]=>
  int(2)
  [4]=>
  string(3) "abc"
  [5]=>
  string(0) ""
}
array(4) {
  [0]=>
  int(0)
  [1]=>
  bool(false)
  [2]=>
  array(0) {
  }
  [3]=>
  array(0) {
  }
}
array(3) {
  [0]=>
  int(1)
  [1]=>
  int(4)
  [2]=>
  array(1) {
    [0]=>
    string(22) "default output handler"
  }
}
