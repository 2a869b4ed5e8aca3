<?php
// The response ends with fastcgi_finish_request(); coroutines then work on.
use function Async\{spawn, delay};

$marker = $_GET['marker'];
echo "answered\n";
fastcgi_finish_request();
$jobs = [];
for ($i = 0; $i < 3; $i++) {
    $jobs[] = spawn(function () use ($i) { delay(50); return "job$i"; });
}
$done = array_map(fn($j) => Async\await($j), $jobs);
file_put_contents($marker, implode(",", $done) . " after the response\n");
