--TEST--
C18: a handle runs one transfer at a time: curl_exec() from a second coroutine fails with a warning naming both, changing or resetting the handle meanwhile is refused, and the first transfer completes intact
--INI--
pcre.jit=0
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

$ch = curl_init(services_url('http', '/delay?s=' . 0.3 * services_time_scale()));
curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);

$first = Async\spawn(fn() => curl_exec($ch));
$second = Async\spawn(function () use ($ch, $first) {
    Async\delay(50);
    $r = curl_exec($ch);
    echo "second curl_exec: ", var_export($r, true), "\n";
    $r = curl_setopt($ch, CURLOPT_URL, 'http://127.0.0.1:1/');
    echo "curl_setopt: ", var_export($r, true), "\n";
    $r = curl_setopt_array($ch, [CURLOPT_POSTFIELDS => 'x']);
    echo "curl_setopt_array: ", var_export($r, true), "\n";
    try {
        curl_reset($ch);
    } catch (Error $e) {
        echo get_class($e), ": ", preg_replace('/#\d+/', '#N', $e->getMessage()), "\n";
    }
    $mh = curl_multi_init();
    echo "curl_multi_add_handle: ", curl_multi_add_handle($mh, $ch) === CURLM_ADDED_ALREADY ? "CURLM_ADDED_ALREADY" : "other", "\n";
});
Async\await($second);
echo "first: ", var_export(preg_replace('/slept [\d.]+/', 'slept N', Async\await($first)), true), ", errno ", curl_errno($ch), "\n";
// Free again: every call works.
var_dump(curl_setopt($ch, CURLOPT_URL, services_url('http', '/hello')));
echo "again: ", var_export(Async\await(Async\spawn(fn() => curl_exec($ch))), true), "\n";
?>
--EXPECTF--
Warning: curl_exec(): Coroutine #%d cannot use this cURL handle: coroutine #%d runs a transfer on it in %s on line %d
second curl_exec: false

Warning: curl_setopt(): Cannot change a cURL handle while coroutine #%d runs a transfer on it in %s on line %d
curl_setopt: false

Warning: curl_setopt_array(): Cannot change a cURL handle while coroutine #%d runs a transfer on it in %s on line %d
curl_setopt_array: false
Error: curl_reset(): Cannot reset a cURL handle while coroutine #N runs a transfer on it
curl_multi_add_handle: CURLM_ADDED_ALREADY
first: 'slept N
', errno 0
bool(true)
again: 'hello
'
