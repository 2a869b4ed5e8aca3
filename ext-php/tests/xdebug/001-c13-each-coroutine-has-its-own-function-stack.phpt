--TEST--
Rule C13: under Xdebug each coroutine has its own function stack: five coroutines that recurse 10 to 14 levels and suspend see only their own frames in xdebug_get_function_stack(), and so does the main flow
--EXTENSIONS--
xdebug
--INI--
xdebug.mode=develop
--FILE--
<?php
use function Async\{spawn, await, suspend};

function recurse(int $n): array {
    if ($n > 0) {
        return recurse($n - 1);
    }
    suspend();
    suspend();
    return array_map(fn($f) => $f['function'] ?? '?', xdebug_get_function_stack());
}
$coroutines = [];
foreach ([10, 11, 12, 13, 14] as $depth) {
    $coroutines[$depth] = spawn(fn() => recurse($depth));
}
foreach ($coroutines as $depth => $co) {
    $stack = await($co);
    // {fiber:...} (the coroutine's context), the closure, then recurse() depth + 1 times.
    printf("depth %d: %d frames, %s %s, %d x recurse\n", $depth, count($stack),
        preg_replace('/[0-9A-F]+/', 'X', $stack[0]), preg_replace('/:.*/', '', $stack[1]),
        count(array_filter($stack, fn($f) => $f === 'recurse')));
}
echo "main: ", implode(', ', array_map(fn($f) => $f['function'] ?? '?', xdebug_get_function_stack())), "\n";
?>
--EXPECT--
depth 10: 13 frames, {fiber:X} {closure, 11 x recurse
depth 11: 14 frames, {fiber:X} {closure, 12 x recurse
depth 12: 15 frames, {fiber:X} {closure, 13 x recurse
depth 13: 16 frames, {fiber:X} {closure, 14 x recurse
depth 14: 17 frames, {fiber:X} {closure, 15 x recurse
main: {main}
