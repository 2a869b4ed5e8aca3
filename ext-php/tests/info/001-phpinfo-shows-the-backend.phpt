--TEST--
php --ri async shows the backend in use, its version, capabilities and the ABI version
--FILE--
<?php
ob_start();
$ext = new ReflectionExtension('async');
$ext->info();
$info = ob_get_clean();
foreach (['True Async support => enabled', 'ABI version => 1.', 'Backend => ', 'Backend version => ', 'Backend capabilities => ', 'async.reactor => ', 'async.zombie_coroutine_timeout => 2 => 2', 'async.stack_size => '] as $needle) {
    echo $needle, ": ", str_contains($info, $needle) ? "yes" : "no", "\n";
}
preg_match('/^Backend => (\S+)/m', $info, $m);
echo $m[1] === ini_get('async.reactor') ? "configured backend loaded\n" : "other backend: {$m[1]}\n";
?>
--EXPECT--
True Async support => enabled: yes
ABI version => 1.: yes
Backend => : yes
Backend version => : yes
Backend capabilities => : yes
async.reactor => : yes
async.zombie_coroutine_timeout => 2 => 2: yes
async.stack_size => : yes
configured backend loaded
