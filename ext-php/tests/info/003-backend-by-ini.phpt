--TEST--
async.reactor picks the backend the runtime loads
--FILE--
<?php
Async\spawn(fn() => 1);
ob_start();
(new ReflectionExtension('async'))->info();
$info = ob_get_clean();
preg_match('/^Backend path => (.*)$/m', $info, $m);
echo basename($m[1]) === 'tasync-backend-' . ini_get('async.reactor') . '.so' ? "loaded from the backend dir\n" : $m[1] . "\n";
?>
--EXPECT--
loaded from the backend dir
