--TEST--
Rule C13: an event loop written on Fiber (Revolt's shape: a queue of fibers, timers and readable streams, a suspend/resume loop) runs inside a coroutine alongside ordinary coroutines, which run while it waits in stream_select() and usleep()
--FILE--
<?php
use function Async\{spawn, await, delay};

/* The loop runs the tasks; each task is a Fiber that suspends to the loop
 * (Fiber::suspend) and is resumed by it when what it waits for happened. */
final class Loop {
    private array $ready = [];      // [Fiber, value]
    private array $timers = [];     // [due, Fiber]
    private array $readers = [];    // id => [stream, Fiber]
    private int $tasks = 0;

    public function async(callable $task): void {
        $this->tasks++;
        $this->ready[] = [new Fiber(function () use ($task) { $task($this); $this->tasks--; }), null];
    }
    public function delay(float $seconds): void {
        $this->timers[] = [hrtime(true) + (int) ($seconds * 1e9), Fiber::getCurrent()];
        Fiber::suspend();
    }
    public function readable($stream): void {
        $this->readers[(int) $stream] = [$stream, Fiber::getCurrent()];
        Fiber::suspend();
    }
    public function run(): void {
        while ($this->tasks > 0) {
            while ($this->ready) {
                [$fiber, $value] = array_shift($this->ready);
                $fiber->isStarted() ? $fiber->resume($value) : $fiber->start();
            }
            if ($this->tasks === 0) break;
            usort($this->timers, fn($a, $b) => $a[0] <=> $b[0]);
            $timeout = $this->timers ? max(0, $this->timers[0][0] - hrtime(true)) : null;
            if ($this->readers) {
                $read = array_column($this->readers, 0);
                $write = $except = null;
                stream_select($read, $write, $except, $timeout === null ? null : 0, $timeout === null ? null : intdiv($timeout, 1000));
                foreach ($read as $s) {
                    $this->ready[] = [$this->readers[(int) $s][1], null];
                    unset($this->readers[(int) $s]);
                }
            } elseif ($timeout !== null) {
                usleep(intdiv($timeout, 1000));
            }
            $now = hrtime(true);
            foreach ($this->timers as $i => [$due, $fiber]) {
                if ($due <= $now) { $this->ready[] = [$fiber, null]; unset($this->timers[$i]); }
            }
        }
    }
}

$log = [];
[$r, $w] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
stream_set_blocking($r, false);

$loopCoroutine = spawn(function () use ($r, &$log) {
    $loop = new Loop();
    $loop->async(function (Loop $l) use (&$log) {
        for ($i = 0; $i < 3; $i++) { $log[] = "loop task A $i"; $l->delay(0.030); }
    });
    $loop->async(function (Loop $l) use (&$log) {
        $l->delay(0.045);
        $log[] = "loop task B after 45 ms";
    });
    $loop->async(function (Loop $l) use ($r, &$log) {
        $l->readable($r);
        $log[] = "loop task C read " . fread($r, 100);
    });
    $loop->run();
    $log[] = "loop done";
    return "loop coroutine " . Async\currentCoroutine()->getId();
});
$ticker = spawn(function () use (&$log) {
    for ($i = 0; $i < 4; $i++) { delay(20); $log[] = "coroutine tick $i"; }
});
$writer = spawn(function () use ($w, &$log) {
    delay(50);
    fwrite($w, "ping");
    $log[] = "coroutine wrote ping";
});
echo await($loopCoroutine) === "loop coroutine " . $loopCoroutine->getId() ? "the loop ran in its coroutine\n" : "wrong coroutine\n";
await($ticker);
await($writer);
// Order within the loop, and proof that the coroutines ran while it waited.
$pos = array_flip($log);
var_dump($pos["loop task A 0"] < $pos["loop task A 1"], $pos["loop task A 1"] < $pos["loop task B after 45 ms"],
    $pos["loop task B after 45 ms"] < $pos["loop task A 2"], $pos["coroutine wrote ping"] < $pos["loop task C read ping"],
    $pos["coroutine tick 0"] < $pos["loop done"]);
echo count($log), " events\n";
?>
--EXPECT--
the loop ran in its coroutine
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
11 events
