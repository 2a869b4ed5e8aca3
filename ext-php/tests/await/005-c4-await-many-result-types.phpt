--TEST--
Rule C4: await() hands back any PHP value unchanged
--FILE--
<?php
$values = [null, false, true, 0, -7, 3.5, "", "text", [1, [2, 3]], ['k' => 'v'], new stdClass, fopen('php://memory', 'r')];
foreach ($values as $v) {
    $r = Async\await(Async\spawn(fn() => $v));
    echo get_debug_type($r), " ", $r === $v ? "same" : "different", "\n";
}
var_dump(Async\await(Async\spawn(function (): void {})));
?>
--EXPECT--
null same
bool same
bool same
int same
int same
float same
string same
string same
array same
array same
stdClass same
resource (stream) same
NULL
