--TEST--
Rule C4: await_all() and await_any_or_fail() accept Futures next to coroutines and timeouts
--FILE--
<?php
$g = new Async\TaskGroup();
$g->spawn(function () { Async\delay(5); return "group"; });
[$results, $errors] = Async\await_all(['future' => $g->all(), 'coroutine' => Async\spawn(fn() => "coroutine")]);
var_dump($results);
echo Async\await_any_or_fail([Async\timeout(60000), $g->race()]), "\n";
?>
--EXPECT--
array(2) {
  ["future"]=>
  array(1) {
    [0]=>
    string(5) "group"
  }
  ["coroutine"]=>
  string(9) "coroutine"
}
group
