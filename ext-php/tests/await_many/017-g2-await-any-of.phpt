--TEST--
Rule G2: await_any_of() waits for $count successes and returns [results, errors]; the others go on
--FILE--
<?php
$slow = Async\spawn(function () { Async\delay(200); echo "the slow one still ran\n"; return "slow"; });
[$results, $errors] = Async\await_any_of(2, [
    'slow' => $slow,
    'bad' => Async\spawn(function () { Async\delay(1); throw new RuntimeException("bad failed"); }),
    'b' => Async\spawn(function () { Async\delay(20); return "b"; }),
    'a' => Async\spawn(function () { Async\delay(10); return "a"; }),
]);
var_dump($results);
foreach ($errors as $k => $e) echo "$k: ", $e->getMessage(), "\n";
var_dump($slow->isCompleted());
echo "count 0: ", json_encode(Async\await_any_of(0, [$slow])), "\n";
[$results] = Async\await_any_of(5, [Async\spawn(fn() => 1), Async\spawn(fn() => 2)]);
echo "more than there are: ", json_encode($results), "\n";
?>
--EXPECT--
array(2) {
  ["b"]=>
  string(1) "b"
  ["a"]=>
  string(1) "a"
}
bad: bad failed
bool(false)
count 0: [[],[]]
more than there are: [1,2]
the slow one still ran
