--TEST--
Rule G2: $fillNull gives every input key a slot in the results, null where there is no result
--FILE--
<?php
function tasks(): array {
    return [
        'ok' => Async\spawn(function () { Async\delay(10); return "ok"; }),
        'failed' => Async\spawn(function () { throw new RuntimeException("failed"); }),
        'late' => Async\spawn(function () { Async\delay(100); return "late"; }),
        7 => Async\spawn(fn() => "seven"),
    ];
}
[$results, $errors] = Async\await_all(tasks(), fillNull: true);
var_dump($results);
echo implode(", ", array_keys($errors)), "\n";
[$results, $errors] = Async\await_any_of(2, tasks(), null, false, true);
var_dump($results);
echo implode(", ", array_keys($errors)), "\n";
?>
--EXPECT--
array(4) {
  ["ok"]=>
  string(2) "ok"
  ["failed"]=>
  NULL
  ["late"]=>
  string(4) "late"
  [7]=>
  string(5) "seven"
}
failed
array(4) {
  ["ok"]=>
  string(2) "ok"
  ["failed"]=>
  NULL
  ["late"]=>
  NULL
  [7]=>
  string(5) "seven"
}
failed
