--TEST--
A backend that cannot be loaded is replaced by uv, with a warning that says why
--DESCRIPTION--
Run with -d async.reactor=/nonexistent/... (meson test phpt-fallback).
--FILE--
<?php
echo "before\n";
echo Async\await(Async\spawn(fn() => "coroutines still run")), "\n";
ob_start();
(new ReflectionExtension('async'))->info();
preg_match('/^Backend => (\S+)/m', ob_get_clean(), $m);
echo "backend: ", $m[1], "\n";
?>
--EXPECTF--
before

Warning: %s/nonexistent/tasync-backend-missing.so%s; using the default backend 'uv' instead in %s on line 3
coroutines still run
backend: uv
