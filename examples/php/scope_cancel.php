<?php
/*
 * A scope cancelled with its children: one cancel() reaches every
 * coroutine of the scope and of its child scopes, deepest first, and each
 * one runs its finally block.
 *
 *   php -d extension=build/ext-php/async.so -d async.backend_dir=build/backends examples/php/scope_cancel.php
 */
use Async\Scope;
use function Async\{delay, timeout};

function worker(string $name): void
{
    try {
        echo "$name: working\n";
        delay(60_000);              // far longer than the program runs
    } catch (Async\CancellationError $e) {
        echo "$name: cancelled ({$e->getMessage()})\n";
        throw $e;                   // let it end as cancelled
    } finally {
        echo "$name: cleaned up\n";
    }
}

$service = new Scope();
$requests = Scope::inherit($service);   // a child scope
$oneRequest = Scope::inherit($requests); // and a grandchild

$service->spawn(worker(...), 'service loop');
$requests->spawn(worker(...), 'request dispatcher');
$oneRequest->spawn(worker(...), 'request #1');

delay(50);
echo "\nstopping the service\n";
$service->cancel(new Async\CancellationError("service stopped"));

// Wait until every coroutine has finished its cleanup.
$service->awaitAfterCancellation(null, timeout(1000));
printf("\nservice cancelled: %s, child: %s, grandchild: %s\n",
    var_export($service->isCancelled(), true),
    var_export($requests->isCancelled(), true),
    var_export($oneRequest->isCancelled(), true));
