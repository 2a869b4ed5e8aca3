--TEST--
php --ri async explains a backend that cannot be loaded
--FILE--
<?php
ob_start();
(new ReflectionExtension('async'))->info();
$info = ob_get_clean();
echo preg_match("/^Backend warning => .*nonexistent.*using the default backend 'uv' instead$/m", $info) ? "warning shown\n" : $info;
preg_match('/^Backend => (\S+)/m', $info, $m);
echo "backend: ", $m[1], "\n";
?>
--EXPECT--
warning shown
backend: uv
