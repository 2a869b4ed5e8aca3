--TEST--
C18: exec(), system(), passthru() and shell_exec() in a coroutine return PHP's values: lines without trailing whitespace, the last line, appended arrays, printed output, binary output, null without output, exit codes, argument errors
--FILE--
<?php
require __DIR__ . '/../include/suspends.inc';

foreach (['exec' => fn() => exec('sleep 0.05'), 'system' => fn() => system('sleep 0.05'),
          'passthru' => fn() => passthru('sleep 0.05'), 'shell_exec' => fn() => shell_exec('sleep 0.05')] as $f => $call) {
    echo "$f suspends only its coroutine: ", run_and_see($call)[1] ? "yes" : "no", "\n";
}
$body = function () {
    $out = ['kept'];
    var_dump(exec("printf 'a  \\nb\\t\\n\\n  c  \\n'; exit 3", $out, $code), $out, $code);
    var_dump(exec("printf 'no newline'"));
    var_dump(exec("true", $none, $code), $none, $code);
    $long = str_repeat('x', 10000);
    var_dump(strlen(exec("printf '%s\\nlast' $long", $lines)), count($lines), strlen($lines[0]));
    echo "--- system\n";
    var_dump(system("echo one; echo two; exit 5", $code), $code);
    echo "--- passthru\n";
    ob_start();
    passthru("printf 'bin\\0ary\\n'; exit 7", $code);
    $bin = ob_get_clean();
    var_dump(bin2hex($bin), $code);
    echo "--- shell_exec\n";
    var_dump(shell_exec("printf 'x\\ny'"), shell_exec("true"), `echo backtick`);
    echo "--- killed\n";
    var_dump(exec('kill -TERM $$', $o, $code), $code);
    echo "--- errors\n";
    foreach (['exec', 'system', 'passthru', 'shell_exec'] as $f) {
        foreach (["", "a\0b"] as $bad) {
            try {
                $f($bad);
            } catch (ValueError $e) {
                echo $e->getMessage(), "\n";
            }
        }
    }
};
Async\await(Async\spawn($body));
?>
--EXPECT--
exec suspends only its coroutine: yes
system suspends only its coroutine: yes
passthru suspends only its coroutine: yes
shell_exec suspends only its coroutine: yes
string(3) "  c"
array(5) {
  [0]=>
  string(4) "kept"
  [1]=>
  string(1) "a"
  [2]=>
  string(1) "b"
  [3]=>
  string(0) ""
  [4]=>
  string(3) "  c"
}
int(3)
string(10) "no newline"
string(0) ""
array(0) {
}
int(0)
int(4)
int(2)
int(10000)
--- system
one
two
string(3) "two"
int(5)
--- passthru
string(16) "62696e006172790a"
int(7)
--- shell_exec
string(3) "x
y"
NULL
string(9) "backtick
"
--- killed
string(0) ""
int(15)
--- errors
exec(): Argument #1 ($command) cannot be empty
exec(): Argument #1 ($command) must not contain any null bytes
system(): Argument #1 ($command) cannot be empty
system(): Argument #1 ($command) must not contain any null bytes
passthru(): Argument #1 ($command) cannot be empty
passthru(): Argument #1 ($command) must not contain any null bytes
shell_exec(): Argument #1 ($command) cannot be empty
shell_exec(): Argument #1 ($command) must not contain any null bytes
