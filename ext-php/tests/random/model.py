"""What a run of a generated program must show (grammar.py writes the
program and its expectations; phprandom.py runs it and calls check()).

Where the rules fix the order, the model predicts it exactly: the
round-robin workers' lines (C1: a coroutine starts only when its spawner
suspends; C2: suspend() sends the caller to the back of a FIFO queue) are
simulated below. Elsewhere only invariants are checked: every coroutine's
lines appear at most once and in their own order, its finally block runs
exactly once when its body started (unless the program ends by exit() or a
fatal error), destructors and onFinally handlers run once, the shutdown
function runs once, the exit status and the deadlock report match the
program's mode, and no inline check of a rule (a "V" line) failed.
"""
from collections import deque
import re


def simulate_round_robin(workers):
    """The order of the R lines: a FIFO run queue of the workers and the
    children they spawn (children are queued at the spawn)."""
    out = []
    q = deque()
    for name, ops in workers:
        q.append([name, ops, 0, 0, 0])   # name, ops, pc, next step, next child
    while q:
        co = q.popleft()
        name, ops = co[0], co[1]
        while co[2] < len(ops):
            op = ops[co[2]]
            co[2] += 1
            if op[0] == "T":
                out.append(f"R {name} {co[3]}")
                co[3] += 1
            elif op[0] == "SP":
                q.append([f"{name}.{co[4]}", op[1], 0, 0, 0])
                co[4] += 1
            else:
                q.append(co)
                break
    return out


# PHP's diagnostics a clean program may print: the notice it triggers and
# the S15 warnings about suspicious situations (a scope released with
# coroutines still running, which become zombies).
DIAGNOSTIC = re.compile(r"^(PHP )?(Warning|Notice|Fatal error|Deprecated|Parse error|Strict Standards)")
ALLOWED_DIAGNOSTICS = [
    re.compile(r"^Notice: rw in .* on line \d+$"),
    re.compile(r"^Warning: Scope created at \S+ was destroyed with \d+ active coroutine\(s\) that were never awaited or disposed"),
    re.compile(r"^Warning: Coroutine is zombie at \S+ in Scope (created|disposed) at \S+"),
    re.compile(r"^Warning: Coroutine spawned at \S+ is cancelled by the Scope disposed at \S+ in "),
]


def check(prog, rc, stdout, stderr, timed_out):
    """Returns a list of failure descriptions (empty: the run is correct)."""
    fails = []
    mode = prog.mode
    if timed_out:
        return ["hang: the program did not end within its budget"]
    if rc < 0:
        return [f"crash: killed by signal {-rc}"]
    if rc in (134, 139) or "Segmentation fault" in stdout or "AddressSanitizer" in stderr:
        return [f"crash: exit status {rc}"]
    trace = [l[3:] for l in stderr.splitlines() if l.startswith("@T ")]
    other_err = [l for l in stderr.splitlines() if not l.startswith("@T ") and l.strip()]
    if other_err:
        fails.append("stderr: " + " | ".join(other_err[:5]))
    strict = mode in ("clean", "deadlock")

    # Inline checks of rules.
    for l in trace:
        if l.startswith("V ") and (strict or l.startswith("V C1")):
            fails.append("rule check failed: " + l[2:])

    # Once-only lines and coroutine lifecycles.
    started, finished = {}, {}
    steps = {}
    pos = {}
    for i, l in enumerate(trace):
        parts = l.split(" ")
        kind = parts[0]
        if kind == "S":
            started[parts[1]] = started.get(parts[1], 0) + 1
            pos.setdefault(("S", parts[1]), i)
        elif kind == "F":
            finished[parts[1]] = finished.get(parts[1], 0) + 1
            pos.setdefault(("F", parts[1]), i)
        elif kind == "P":
            steps.setdefault(parts[1], []).append((int(parts[2]), i))
    for lbl, n in started.items():
        if n > 1:
            fails.append(f"coroutine {lbl} started {n} times")
    for lbl, n in finished.items():
        if n > 1:
            fails.append(f"the finally block of {lbl} ran {n} times")
        if lbl not in started:
            fails.append(f"the finally block of {lbl} ran but its body never started")
    if mode not in ("exit", "fatal"):
        for lbl in started:
            if lbl not in finished:
                fails.append(f"coroutine {lbl} started but its finally block never ran")
    for lbl in prog.never_start:
        if lbl in started:
            fails.append(f"C7 coroutine {lbl} was cancelled before its start and started anyway")
    for lbl, seq in steps.items():
        ks = [k for k, _ in seq]
        if ks != sorted(set(ks)):
            fails.append(f"coroutine {lbl}'s steps out of order or repeated: {ks}")
        if lbl != "m":
            if lbl not in started or seq[0][1] < pos[("S", lbl)]:
                fails.append(f"coroutine {lbl} has steps before its start")
            if ("F", lbl) in pos and seq[-1][1] > pos[("F", lbl)]:
                fails.append(f"coroutine {lbl} has steps after its finally block")

    def count(line):
        return sum(1 for l in trace if l == line)

    # Destructors, onFinally handlers: once if the object was made or the
    # handler registered (the code that does it may never run).
    for n in sorted(prog.dtor_once):
        c = count(f"D {n}")
        made = count(f"N {n}")
        if c > made or (mode == "clean" and c != made):
            fails.append(f"the destructor of object {n} ran {c} times")
    # Fibers (C13): a started Fiber's finally block runs once, also when
    # it is left unfinished and destroyed.
    for l in trace:
        if l.startswith("FS "):
            n = l[3:]
            c = count(f"FF {n}")
            if c > 1 or (mode == "clean" and c != 1):
                fails.append(f"C13 the finally block of Fiber {n} ran {c} times")
    for lbl in sorted(prog.onfinally_once):
        c = count(f"OF {lbl}")
        reg = count(f"ON {lbl}")
        if c > 1 or (mode == "clean" and c != reg):
            fails.append(f"C11 the onFinally handler of {lbl} ran {c} times")
    for s in sorted(prog.scope_finally):
        c = count(f"SF {s}")
        reg = count(f"SN {s}")
        if c > 1 or (mode == "clean" and c != reg):
            fails.append(f"S12 the onFinally handler of scope {s} ran {c} times")
    for g in sorted(prog.group_finally):
        c = count(f"GF {g}")
        if c > 1:
            fails.append(f"G1 the finally handler of group {g} ran {c} times")
    sd = count("SD")
    if sd != 1:
        fails.append(f"C19/C22 the shutdown function ran {sd} times")
    me = count("ME")
    if me > 1 or (strict and me != 1):
        fails.append(f"the main flow reached its end {me} times")

    # The order the rules fix: the round-robin workers (C1, C2).
    if strict and prog.rr:
        want = simulate_round_robin(prog.rr)
        got = [l for l in trace if l.startswith("R ")]
        if got != want:
            fails.append("C1/C2 the round-robin order differs from the model's:\n"
                         f"      want {want}\n      got  {got}")

    # C22: after a fatal error no user code runs but the shutdown functions.
    if "FATAL" in trace:
        after = trace[trace.index("FATAL") + 1:]
        extra = [l for l in after if l != "SD"]
        if extra:
            fails.append(f"C22 user code ran after the fatal error: {extra[:6]}")
        if rc != 255:
            fails.append(f"C22 exit status {rc} after a fatal error, not 255")
        # Inside an output callback the message goes to the buffer being
        # handled: a coroutine's is written out as it is (C23); the main
        # flow's is lost as in plain PHP, which then reports a second fatal
        # error at its shutdown.
        if "Fatal error" not in stdout:
            fails.append("C22 no fatal error message")
    # Exit status and the deadlock report.
    deadlock_report = "Deadlock detected" in stdout
    if mode == "clean":
        if rc != 0:
            fails.append(f"exit status {rc}, not 0")
        if deadlock_report:
            fails.append("C14 a deadlock report for a program that cannot deadlock")
        for l in stdout.splitlines():
            l = re.sub(r"^(ob-out|ob-more|a)+", "", l)
            if DIAGNOSTIC.match(l) and not any(p.match(l) for p in ALLOWED_DIAGNOSTICS):
                fails.append("unexpected output: " + l[:300])
                break
    elif mode == "deadlock":
        if not deadlock_report:
            fails.append("C14 no deadlock report for a program that deadlocks")
        if rc != 255:
            fails.append(f"C14 exit status {rc} after a deadlock, not 255")
        if count("DLF") < 1:
            fails.append("C14 the deadlocked coroutines' finally blocks did not run")
    elif mode == "exit":
        def code_if(p):
            return p.exit_code if "EXIT" in trace else 0
        # A coroutine that caught its cancellation (the grammar's catch-all
        # does) is not cancelled a second time by the shutdown exit() starts
        # (by design: the RFC says not to suppress CancellationError); if it
        # then waits for a coroutine the shutdown kept from starting, the
        # deadlock report ends the program (C14) with status 255.
        if rc != code_if(prog) and not (deadlock_report and rc == 255):
            fails.append(f"C15 exit status {rc}, not the {code_if(prog)} exit() gave")
    elif mode == "escape":
        if rc not in (0, 255):
            fails.append(f"exit status {rc}")
    elif mode == "fatal" and "FATAL" not in trace and rc != 0:
        fails.append(f"exit status {rc} though the fatal error was never reached")
    return fails
