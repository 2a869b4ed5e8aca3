--TEST--
C18: before the runtime exists curl is PHP's own; an easy handle and a multi handle with transfers started then keep working when coroutines drive them
--INI--
pcre.jit=0
--EXTENSIONS--
curl
--SKIPIF--
<?php require __DIR__ . '/../include/services.inc'; services_skip('http'); ?>
--FILE--
<?php
require __DIR__ . '/../include/services.inc';

// No coroutine yet: PHP's curl_exec() and curl_multi_exec().
$ch = curl_init(services_url('http', '/hello'));
curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
echo "plain curl_exec: ", trim(curl_exec($ch)), "\n";
$mh = curl_multi_init();
$handles = [];
for ($i = 0; $i < 2; $i++) {
    $handles[$i] = curl_init(services_url('http', '/delay?s=' . 0.3 * services_time_scale()));
    curl_setopt($handles[$i], CURLOPT_RETURNTRANSFER, true);
    curl_multi_add_handle($mh, $handles[$i]);
}
curl_multi_exec($mh, $active);
echo "plain curl_multi_exec started $active transfers\n";

// Now coroutines: the multi handle's transfers (started above) finish in
// one, the easy handle runs another transfer in a second, a third ticks.
$ticks = 0;
$stop = false;
$ticker = Async\spawn(function () use (&$ticks, &$stop) {
    while (!$stop) {
        Async\delay(10);
        $ticks++;
    }
});
$start = hrtime(true);
$multi = Async\spawn(function () use ($mh, $handles) {
    do {
        curl_multi_exec($mh, $active);
        if ($active) {
            curl_multi_select($mh, 1.0);
        }
    } while ($active);
    $out = [];
    while ($info = curl_multi_info_read($mh)) {
        $out[] = $info['result'];
    }
    foreach ($handles as $h) {
        $out[] = trim(curl_multi_getcontent($h));
    }
    return preg_replace('/slept [\d.]+/', 'slept N', implode(' ', $out));
});
$easy = Async\spawn(function () use ($ch) {
    curl_setopt($ch, CURLOPT_URL, services_url('http', '/delay?s=' . 0.2 * services_time_scale()));
    return preg_replace('/slept [\d.]+/', 'slept N', trim(curl_exec($ch)));
});
echo "multi: ", Async\await($multi), "\n";
echo "easy: ", Async\await($easy), "\n";
$elapsed = (hrtime(true) - $start) / 1e9;
$stop = true;
Async\await($ticker);
echo "overlapped: ", $elapsed < 0.8 * services_time_scale() ? "yes" : "no ($elapsed s)", "\n";
echo "the ticker ran meanwhile: ", $ticks >= 5 ? "yes" : "no ($ticks)", "\n";
?>
--EXPECT--
plain curl_exec: hello
plain curl_multi_exec started 2 transfers
multi: 0 0 slept N slept N
easy: slept N
overlapped: yes
the ticker ran meanwhile: yes
