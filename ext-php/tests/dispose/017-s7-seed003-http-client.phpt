--TEST--
Rule S6/S7 (seed 003, "Real-World Example: HTTP Client"): cancelAll() cancels the requests; the destructor's dispose() is then a no-op
--DESCRIPTION--
curl is replaced by a coroutine that waits: the point is the scope's life.
--FILE--
<?php
class HttpClient {
    private Async\Scope $scope;

    public function __construct() {
        $this->scope = new Async\Scope();
    }

    public function get(string $url): Async\Awaitable {
        return $this->scope->spawn(function() use ($url) {
            try {
                Async\delay(60000);
                return "body of $url";
            } finally {
                echo "closing $url\n";
            }
        });
    }

    public function cancelAll(): void {
        // Cancel all active requests
        $this->scope->cancel();
    }

    public function __destruct() {
        $this->scope->dispose();
    }
}

$client = new HttpClient();

$req1 = $client->get('https://api1.com/data');
$req2 = $client->get('https://api2.com/data');
Async\suspend();

// Cancel all requests
$client->cancelAll();
foreach ([$req1, $req2] as $req) {
    try {
        Async\await($req);
    } catch (Async\CancellationError) {
        echo "request cancelled\n";
    }
}
unset($client);
echo "client gone\n";
?>
--EXPECT--
closing https://api1.com/data
closing https://api2.com/data
request cancelled
request cancelled
client gone
