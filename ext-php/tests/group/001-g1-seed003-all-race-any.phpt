--TEST--
Rule G1 (seed 003, "TaskGroup: Scope with Results"): all(), race() and any() are awaitables
--DESCRIPTION--
fetchUser() is a stand-in that waits a little (longer for smaller ids, so
that the completion order differs from the spawn order).
--FILE--
<?php
use function Async\await;

function fetchUser(int $id): string {
    Async\delay(30 - 10 * $id);
    return "user $id";
}

$group = new Async\TaskGroup(concurrency: 5);

$group->spawn(fn() => fetchUser(1));
$group->spawn(fn() => fetchUser(2));
$group->spawn(fn() => fetchUser(3));

// Get all results (waits for all tasks to complete)
$results = await($group->all());
var_dump($results);

// Or get the first completed result
$first = await($group->race());
var_dump($first);

// Or the first successful one (ignoring errors)
$any = await($group->any());
var_dump($any);
?>
--EXPECT--
array(3) {
  [0]=>
  string(6) "user 1"
  [1]=>
  string(6) "user 2"
  [2]=>
  string(6) "user 3"
}
string(6) "user 3"
string(6) "user 3"
