--TEST--
Async\signal() refuses numbers that are not signals, SIGKILL and SIGSTOP, the fault signals (SIGSEGV and SIGBUS belong to the guard-page handler) and the C library's own signals, with a ValueError that says why
--FILE--
<?php
foreach ([0, -1, 65, 1000, SIGKILL, SIGSTOP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, 32, 33] as $signo) {
    try {
        Async\signal($signo);
        echo "$signo: accepted\n";
    } catch (ValueError $e) {
        echo "$signo: ", $e->getMessage(), "\n";
    }
}
try {
    Async\signal("TERM");
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
echo "still running\n";
?>
--EXPECT--
0: Async\signal(): Argument #1 ($signal) must be a valid signal number (1 to 64)
-1: Async\signal(): Argument #1 ($signal) must be a valid signal number (1 to 64)
65: Async\signal(): Argument #1 ($signal) must be a valid signal number (1 to 64)
1000: Async\signal(): Argument #1 ($signal) must be a valid signal number (1 to 64)
9: Async\signal(): Argument #1 ($signal) must be a signal that can be caught (SIGKILL and SIGSTOP cannot)
19: Async\signal(): Argument #1 ($signal) must be a signal that can be caught (SIGKILL and SIGSTOP cannot)
11: Async\signal(): Argument #1 ($signal) must not be SIGSEGV or SIGBUS: the runtime's guard-page handler owns them (it turns a coroutine's stack overflow into an error and passes every other fault on)
7: Async\signal(): Argument #1 ($signal) must not be SIGSEGV or SIGBUS: the runtime's guard-page handler owns them (it turns a coroutine's stack overflow into an error and passes every other fault on)
8: Async\signal(): Argument #1 ($signal) must not be SIGFPE or SIGILL: a fault signal cannot be awaited (the faulting code would run again as soon as a handler returns)
4: Async\signal(): Argument #1 ($signal) must not be SIGFPE or SIGILL: a fault signal cannot be awaited (the faulting code would run again as soon as a handler returns)
32: Async\signal(): Argument #1 ($signal) must not be 32: signals 32 to 33 are the C library's own
33: Async\signal(): Argument #1 ($signal) must not be 33: signals 32 to 33 are the C library's own
Async\signal(): Argument #1 ($signal) must be of type Async\Signal|int, string given
still running
