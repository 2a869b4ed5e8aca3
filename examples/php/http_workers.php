<?php
// An HTTP/1.1 keep-alive server on every core: N worker processes that each
// listen on the same port with SO_REUSEPORT (the kernel spreads the
// connections) and serve them with one coroutine per connection; a master
// that restarts a worker that dies and, on SIGTERM or SIGINT, drains: each
// worker stops accepting, finishes the requests in flight, closes idle
// connections and exits 0, then the master exits 0.
//
//   php -d extension=async.so examples/php/http_workers.php [--port=8080] [--workers=N]
//
// N defaults to the number of CPUs. It runs in the foreground, as systemd
// (Type=simple, KillSignal=SIGTERM) and supervisord expect; see docs/php.md.
// Both roles wait for their signals with Async\signal() (rule C26), which
// returns a Future of the next delivery: await it to wait.
declare(strict_types=1);

use function Async\signal;
use function Async\spawn;

const RESPONSE_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n";
const RESPONSE_BODY = "Hello, World!";
const RESTART_DELAY_MS = 200;   // a worker that dies at once is not restarted in a tight loop

$opts = getopt('', ['port:', 'workers:', 'worker:']);
$port = (int) ($opts['port'] ?? 8080);
if (isset($opts['worker'])) {
    exit(worker($port, (int) $opts['worker']));
}
$workers = (int) ($opts['workers'] ?? cpu_count());
exit(master($port, max(1, $workers)));

function cpu_count(): int
{
    $n = preg_match_all('/^processor\s*:/m', (string) @file_get_contents('/proc/cpuinfo'));
    return $n > 0 ? $n : 1;
}

function say(string $who, string $what): void
{
    fwrite(STDERR, sprintf("[%s %d] %s\n", $who, getmypid(), $what));
}

// ---------------------------------------------------------------- worker

function worker(int $port, int $id): int
{
    $context = stream_context_create(['socket' => [
        'backlog' => 4096, 'so_reuseport' => true, 'tcp_nodelay' => true,
    ]]);
    $server = @stream_socket_server("tcp://0.0.0.0:$port", $errno, $errstr,
        STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
    if ($server === false) {
        say("worker $id", "cannot listen on port $port: $errstr");
        return 1;
    }
    $draining = false;
    $idle = [];                 // connection coroutines waiting for a request, by id
    $connections = new Async\Scope();

    $serve = static function ($conn) use (&$draining, &$idle): void {
        $self = Async\currentCoroutine();
        $buffer = '';
        while (!$draining) {
            $idle[$self->getId()] = $self;
            $data = fread($conn, 65536);
            unset($idle[$self->getId()]);
            if ($data === false || $data === '') {
                break;
            }
            $buffer .= $data;
            $out = '';
            while (($end = strpos($buffer, "\r\n\r\n")) !== false) {
                $buffer = (string) substr($buffer, $end + 4);
                // A request answered while draining is the connection's last.
                $out .= RESPONSE_HEAD . ($draining ? "Connection: close\r\n" : '') . "\r\n" . RESPONSE_BODY;
            }
            if ($out !== '' && fwrite($conn, $out) === false) {
                break;
            }
        }
        fclose($conn);
    };

    $acceptor = spawn(static function () use ($server, $connections, $serve): void {
        while (true) {
            $conn = @stream_socket_accept($server, -1);
            if ($conn !== false) {
                $connections->spawn($serve, $conn);
            }
        }
    });

    // SIGINT too: Ctrl-C reaches every process of the foreground group,
    // and the master, which gets it as well, sends SIGTERM to all.
    $signo = first_signal([SIGTERM, SIGINT]);
    say("worker $id", "signal $signo: draining");
    $draining = true;
    $acceptor->cancel();
    try {
        Async\await($acceptor);   // out of its accept before the socket closes
    } catch (Async\CancellationError) {
    }
    fclose($server);
    // Idle connections have nothing in flight: they are closed now; the
    // others answer their current request and close.
    foreach ($idle as $co) {
        $co->cancel();
    }
    try {
        $connections->awaitCompletion(Async\timeout(10000));
    } catch (Async\AwaitCancelledException) {
        say("worker $id", "requests still running after 10 s: cancelled");
        $connections->cancel();
    }
    say("worker $id", "drained");
    return 0;
}

// ---------------------------------------------------------------- master

function master(int $port, int $count): int
{
    $stopping = false;
    $running = [];              // worker id => proc_open resource

    $start = static function (int $id) use ($port, &$running): void {
        $cmd = array_merge([PHP_BINARY], php_ini_args(), [__FILE__, "--port=$port", "--worker=$id"]);
        $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => STDOUT, 2 => STDERR], $pipes);
        if ($proc === false) {
            say('master', "cannot start worker $id");
            return;
        }
        $running[$id] = $proc;
    };
    for ($id = 1; $id <= $count; $id++) {
        $start($id);
    }
    say('master', "$count workers on port $port");

    // Workers that exit: restarted unless the master is stopping.
    $reaper = spawn(static function () use (&$running, &$stopping, $start): void {
        while (true) {
            foreach ($running as $id => $proc) {
                $status = proc_get_status($proc);
                if ($status['running']) {
                    continue;
                }
                proc_close($proc);
                unset($running[$id]);
                if (!$stopping) {
                    say('master', "worker $id exited (status {$status['exitcode']}): restarting it");
                    Async\delay(RESTART_DELAY_MS);
                    $start($id);
                }
            }
            if ($stopping && $running === []) {
                return;
            }
            try {
                Async\await(signal(SIGCHLD, Async\timeout(1000)));  // or look again in a second
            } catch (Async\AwaitCancelledException) {
            }
        }
    });

    $stop = first_signal([SIGTERM, SIGINT]);
    say('master', "signal $stop: draining the workers");
    $stopping = true;
    foreach ($running as $proc) {
        proc_terminate($proc, SIGTERM);
    }
    Async\await($reaper);
    say('master', 'every worker drained');
    return 0;
}

// Waits for the first of the signals and returns its number.
function first_signal(array $signals): int
{
    $futures = array_map(static fn (int $signo) => signal($signo), $signals);
    $signal = Async\await_any_or_fail($futures);
    foreach ($futures as $future) {
        $future->cancel();     // the other waits end
    }
    return $signal instanceof Async\Signal ? $signal->value : $signal;
}

// This process's command line up to the script (the PHP binary's -d and -n
// options: extension=async.so and the like), for the workers.
function php_ini_args(): array
{
    $argv = explode("\0", rtrim((string) file_get_contents('/proc/self/cmdline'), "\0"));
    $script = realpath($_SERVER['SCRIPT_FILENAME']);
    $args = [];
    foreach (array_slice($argv, 1) as $arg) {
        if (realpath($arg) === $script) {
            break;
        }
        $args[] = $arg;
    }
    return $args;
}
