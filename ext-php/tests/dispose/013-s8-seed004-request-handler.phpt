--TEST--
Rule S8 (seed 004, "HTTP Server with Middleware"): a scope bound to an object; disposeSafely() in the destructor lets the middleware finish
--DESCRIPTION--
The seed's Request/Response classes and third-party middleware are small
stand-ins. The middleware closure is static and calls a static method: a
closure bound to $this would keep the handler alive past unset() while the
middleware runs.
--FILE--
<?php
class RequestHandler
{
    private Async\Scope $scope;

    public function __construct() {
        $this->scope = new Async\Scope();
    }

    public function handle(string $request): string {
        // Launch middleware -- this could be third-party code
        $this->scope->spawn(static function() use ($request) {
            self::runMiddleware($request);
        });

        // Main processing -- our code
        $response = $this->scope->spawn(function() use ($request) {
            return $this->processRequest($request);
        });
        Async\await($response); // this coroutine (and its $this) is done

        return Async\await($response);
    }

    private static function runMiddleware(string $request): void {
        Async\delay(20);
        echo "middleware done for $request\n";
    }

    private function processRequest(string $request): string {
        return "response to $request";
    }

    public function __destruct() {
        // Zombie coroutines will finish on their own.
        $this->scope->disposeSafely();
    }
}

$handler = new RequestHandler();
echo $handler->handle("GET /"), "\n";
unset($handler);
echo "handler gone\n";
?>
--EXPECTF--
response to GET /

Warning: Coroutine is zombie at %s:12 in Scope disposed at %s:36 in %s on line 36
handler gone
middleware done for GET /
