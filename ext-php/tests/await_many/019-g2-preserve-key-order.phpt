--TEST--
Rule G2: $preserveKeyOrder = false gives await_all(), await_all_or_fail() and await_any_of() their results in completion order
--FILE--
<?php
function tasks(): array {
    return [
        'third' => Async\spawn(function () { Async\delay(30); return 3; }),
        'first' => Async\spawn(function () { Async\delay(1); return 1; }),
        'second' => Async\spawn(function () { Async\delay(15); return 2; }),
    ];
}
echo json_encode(Async\await_all(tasks())[0]), "\n";
echo json_encode(Async\await_all(tasks(), preserveKeyOrder: false)[0]), "\n";
echo json_encode(Async\await_all_or_fail(tasks())), "\n";
echo json_encode(Async\await_all_or_fail(tasks(), null, false)), "\n";
echo json_encode(Async\await_any_of(2, tasks())[0]), "\n";
echo json_encode(Async\await_any_of(2, tasks(), preserveKeyOrder: false)[0]), "\n";
echo json_encode(Async\await_any_of_or_fail(2, tasks(), preserveKeyOrder: false)), "\n";
?>
--EXPECT--
{"third":3,"first":1,"second":2}
{"first":1,"second":2,"third":3}
{"third":3,"first":1,"second":2}
{"first":1,"second":2,"third":3}
{"first":1,"second":2}
{"first":1,"second":2}
{"first":1,"second":2}
