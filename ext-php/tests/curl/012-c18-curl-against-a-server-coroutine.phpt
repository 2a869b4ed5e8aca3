--TEST--
C18: curl_exec() talks to an HTTP server run by another coroutine of the same process: a redirect followed, a POST body, a CURLOPT_INFILE upload, a response into CURLOPT_FILE
--INI--
pcre.jit=0
--EXTENSIONS--
curl
--FILE--
<?php
use function Async\spawn;
use function Async\await;

/* A small HTTP/1.1 server: one request per connection. */
function serve($server): void
{
    while ($conn = @stream_socket_accept($server, 10)) {
        spawn(function () use ($conn) {
            $head = '';
            while (($line = fgets($conn)) !== false && $line !== "\r\n") {
                $head .= $line;
            }
            [$method, $path] = explode(' ', $head);
            $body = '';
            if (preg_match('/^content-length: *(\d+)/mi', $head, $m) && $m[1] > 0) {
                while (strlen($body) < $m[1] && ($chunk = fread($conn, $m[1] - strlen($body))) !== false && $chunk !== '') {
                    $body .= $chunk;
                }
            }
            [$status, $extra, $payload] = match ($path) {
                '/redirect' => ['302 Found', "Location: /target\r\n", ''],
                '/target' => ['200 OK', '', 'target reached'],
                '/echo' => ['200 OK', '', "$method " . $body],
                default => ['404 Not Found', '', 'no'],
            };
            fwrite($conn, "HTTP/1.1 $status\r\n{$extra}Content-Length: " . strlen($payload) . "\r\nConnection: close\r\n\r\n$payload");
            fclose($conn);
        });
    }
}

$server = stream_socket_server('tcp://127.0.0.1:0');
$base = 'http://' . stream_socket_get_name($server, false);
$serving = spawn('serve', $server);

$client = spawn(function () use ($base) {
    $ch = curl_init("$base/redirect");
    curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_FOLLOWLOCATION => true, CURLOPT_TIMEOUT => 5]);
    echo "redirect: ", curl_exec($ch), " (", curl_getinfo($ch, CURLINFO_REDIRECT_COUNT), " redirect, errno ", curl_errno($ch), ")\n";

    curl_setopt_array($ch, [CURLOPT_URL => "$base/echo", CURLOPT_POSTFIELDS => 'a=1&b=2']);
    echo "post: ", curl_exec($ch), "\n";

    $in = tmpfile();
    fwrite($in, 'uploaded bytes');
    rewind($in);
    $ch = curl_init("$base/echo");
    curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_UPLOAD => true, CURLOPT_INFILE => $in,
        CURLOPT_INFILESIZE => 14, CURLOPT_TIMEOUT => 5]);
    echo "upload: ", curl_exec($ch), "\n";

    $out = tmpfile();
    $ch = curl_init("$base/target");
    curl_setopt_array($ch, [CURLOPT_FILE => $out, CURLOPT_TIMEOUT => 5]);
    $r = curl_exec($ch);
    rewind($out);
    echo "file: ", var_export($r, true), ", the file holds '", stream_get_contents($out), "'\n";
});
await($client);
fclose($server);
await($serving);
?>
--EXPECT--
redirect: target reached (1 redirect, errno 0)
post: POST a=1&b=2
upload: PUT uploaded bytes
file: true, the file holds 'target reached'
