--TEST--
Rule X2 (seed 002, "Context inheritance"): a child scope's context looks up its parents; the root context does not see them
--DESCRIPTION--
The seed's socket server is reduced to one request with fixed ids; the
seed's `spawn in $requestScope handleRequest($socket)` is
$requestScope->spawn(handleRequest(...)).
--FILE--
<?php
use Async\Scope;
use function Async\currentContext;
use function Async\rootContext;

function handleRequest(): void
{
    echo currentContext()->get('request_id')."\n"; // <-- From request context
    echo currentContext()->get('server_id')."\n"; // <-- From server context
    var_dump(rootContext()->get('request_id')); // <-- Should be NULL
}

function startRequestHandler(Scope $serverScope): Scope
{
    $requestScope = Scope::inherit($serverScope); // <-- Inherit server context
    $requestScope->context->set('request_id', 'request-42'); // <-- Override server context slot

    // Handle request in separate coroutine and scope
    $requestScope->spawn(handleRequest(...));
    return $requestScope;
}

$serverScope = new Scope();
$serverScope->context->set('server_id', 'server-1');
$serverScope->context->set('request_id', null);
$requestScope = startRequestHandler($serverScope);
$requestScope->awaitCompletion(Async\timeout(60000));
var_dump($serverScope->context->get('request_id'));
?>
--EXPECT--
request-42
server-1
NULL
NULL
