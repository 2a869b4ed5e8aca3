"""The grammar of the PHP-level randomized tester: writes one PHP program from
a seed, together with what the model expects of its run (model.py).

A program talks to the checker through a trace on stderr, written with
error_log() (the CLI writes it straight to stderr: no output buffer, no
stream, no suspension, so tracing never changes the schedule):

    S l        coroutine l's body started        F l    its finally block ran
    P l k      coroutine l's k-th step           X l C  it caught a C
    D n        destructor of object n ran        OF l   an onFinally handler of l ran
    SF s       scope s's onFinally handler ran   GF g   group g's finally ran
    R w k      round-robin worker w, step k      FATAL  a fatal error comes next
    ME         the main flow reached its end     SD     the shutdown function ran
    V text     an inline check of a rule failed (the text names the rule)

Every coroutine body is try { ... } catch (Throwable) { X } finally { F }, so
that nothing escapes unless the program's mode says it may (model.py).
"""
import random

MODES = ["clean"] * 12 + ["deadlock"] * 2 + ["escape"] * 2 + ["exit"] * 2 + ["fatal"] * 2

PRELUDE = r"""<?php
use function Async\{spawn, suspend, await, delay, timeout, protect, iterate, await_all, await_any_or_fail};
use Async\{Scope, TaskGroup, TaskSet, Channel, Future, FutureState, Pool, CancellationError};

function t(string $s): void { error_log("@T " . $s); }
function v(string $s): void { error_log("@T V " . $s); }
// Inline checks hold only while the checking coroutine is not being cancelled.
function live(): bool { return !Async\current_coroutine()->isCancellationRequested(); }
// Coroutines others depend on (a future's completer, a channel's producer, a
// pool's borrowers) run in a root scope nothing cancels, so that cancelling
// the waiter's scope inside protect() cannot leave it waiting for ever.
// A failure that reaches it (a task group dropped by a cancelled coroutine
// before it read its errors) is traced, not escalated.
function helper(): Scope {
    if (!isset($GLOBALS['helpers'])) {
        $GLOBALS['helpers'] = new Scope();
        $GLOBALS['helpers']->setExceptionHandler(function ($s, $c, $e) { t('EHH'); });
        $GLOBALS['helpers']->setChildScopeExceptionHandler(function ($s, $c, $e) { t('EHH'); });
    }
    return $GLOBALS['helpers'];
}

final class D {
    public $self; public $co;
    public function __construct(public int $n, public int $mode) { t("N {$n}"); }
    public function __destruct() {
        t("D {$this->n}");
        // Break the cycle: resurrected by a coroutine spawned below and
        // released after the last collection, a still cyclic object is
        // one PHP itself never frees (README.md, valgrind).
        $this->self = null;
        $this->co = null;
        switch ($this->mode) {
            case 1: suspend(); break;
            case 2: delay(1); break;
            // Spawning fails when the current scope is closed (S3): an object
            // that dies as its coroutine's cancelled scope unwinds.
            case 3: try { spawn(function () { t("DS {$this->n}"); suspend(); t("DE {$this->n}"); }); } catch (\Async\AsyncException $e) { t("DX {$this->n}"); } break;
            case 4: try { await(spawn(fn () => 1)); } catch (\Async\AsyncException $e) { t("DX {$this->n}"); } break;
            case 5: throw new \RuntimeException("dtor {$this->n}");
            case 6: end_here();
        }
    }
}
final class TS {
    public function __construct(public int $mode) {}
    public function __toString(): string {
        if ($this->mode === 1) { suspend(); }
        if ($this->mode === 2) { delay(1); }
        if ($this->mode === 3) { return (string) await(spawn(fn () => "ts")); }
        if ($this->mode === 4) { end_here(); }
        return "ts";
    }
}
// PHP frees no garbage cycle left at its shutdown when its allocator is off
// (USE_ZEND_ALLOC=0, the valgrind runs): plain PHP "leaks" an unreferenced
// self-cycle there. Collect them first, so valgrind sees only real leaks.
register_shutdown_function(function () { t("SD"); gc_collect_cycles(); });
// exit() or a fatal error, wherever the program's mode puts it.
function end_here(): void {
    if ($GLOBALS['end_kind'] === 'exit') {
        t('EXIT');
        exit($GLOBALS['exit_code']);
    }
    t('FATAL');
    eval('function fatal_twice() {}');
    eval('function fatal_twice() {}');
}
"""


class Program:
    def __init__(self, seed: int):
        self.seed = seed
        self.rng = random.Random(seed)
        self.mode = self.rng.choice(MODES)
        self.lines = []
        self.labels = 0
        self.objects = 0
        self.scopes = 0
        self.groups = 0
        self.budget = self.rng.randint(12, 45)     # statements in all
        self.features = set()
        # What the model expects (model.py reads these).
        self.never_start = set()      # labels cancelled before they start (C7)
        self.dtor_once = set()        # objects whose destructor must run exactly once
        self.onfinally_once = set()   # coroutines whose onFinally handler must run once (C11)
        self.scope_finally = set()    # scopes whose onFinally must run (S12)
        self.group_finally = set()
        self.rr = []                  # the round-robin workers' programs (C1, C2)
        self.steps = {}               # label -> next step number
        self.placed_end = False       # exit()/fatal placed yet
        self.exit_code = 0
        self.end_where = None

    # -- helpers -----------------------------------------------------------
    def r(self, n):
        return self.rng.randrange(n)

    def chance(self, p):
        return self.rng.random() < p

    def uniq(self):
        self.objects += 1
        return self.objects

    def label(self):
        self.labels += 1
        return f"c{self.labels}"

    def emit(self, ind, text):
        for l in text.splitlines():
            self.lines.append("    " * ind + l)

    # -- the program -------------------------------------------------------
    def generate(self):
        out = [PRELUDE.rstrip("\n"), f"// phprandom program seed {self.seed}, mode {self.mode}"]
        self.lines = []
        if self.mode == "exit":
            self.exit_code = self.rng.choice([0, 3, 7])
        self.emit(0, f"$GLOBALS['end_kind'] = '{self.mode}'; $GLOBALS['exit_code'] = {self.exit_code};")
        eh = self.r(6)
        if eh:
            self.features.add("error-handler")
            body = {1: "t('EH'); return true;",
                    2: "suspend(); return true;",
                    3: "delay(1); return true;",
                    4: "if ($m === 'rw') { throw new \\ErrorException($m); } return false;",
                    5: "try { spawn(fn () => t('EHS')); } catch (\\Async\\AsyncException $e) { } return true;"}[eh]
            self.emit(0, f"set_error_handler(function ($no, $m) {{ {body} }});")
        if self.chance(0.7):
            self.round_robin()
        if self.mode == "deadlock":
            self.deadlock_gadget()
        self.stmts(0, "m", depth=0, n=self.rng.randint(4, 10), in_main=True)
        if self.mode in ("exit", "fatal") and not self.placed_end:
            self.place_end(0, None)
        self.emit(0, 't("ME");')
        return "\n".join(out + self.lines) + "\n"

    # C1 and C2: workers that only trace, suspend and spawn children; their
    # lines' order is fixed by the rules (model.py simulates it).
    def round_robin(self):
        self.features.add("round-robin")
        n = self.rng.randint(2, 4)
        self.emit(0, "$GLOBALS['rr_after'] = false;")
        for w in range(n):
            ops = self.rr_ops(f"w{w}", 0)
            self.rr.append((f"w{w}", ops))
            self.emit(0, "spawn(function () {")
            self.emit(1, "if (!$GLOBALS['rr_after']) { v('C1 a coroutine started before its spawner suspended'); }")
            self.rr_emit(1, f"w{w}", ops)
            self.emit(0, "});")
        self.emit(0, "$GLOBALS['rr_after'] = true;")

    def rr_ops(self, name, depth):
        ops = []
        for _ in range(self.rng.randint(1, 5)):
            k = self.r(10)
            if k < 4:
                ops.append(("T",))
            elif k < 8:
                ops.append(("Y",))
            elif depth < 2:
                ops.append(("SP", self.rr_ops(name + ".", depth + 1)))
        return ops

    def rr_emit(self, ind, name, ops):
        step = 0
        child = 0
        for op in ops:
            if op[0] == "T":
                self.emit(ind, f't("R {name} {step}");')
                step += 1
            elif op[0] == "Y":
                self.emit(ind, "suspend();")
            else:
                cname = f"{name}.{child}"
                child += 1
                self.emit(ind, "spawn(function () {")
                self.rr_emit(ind + 1, cname, op[1])
                self.emit(ind, "});")

    def deadlock_gadget(self):
        self.features.add("deadlock")
        if self.chance(0.5):
            self.emit(0, "$GLOBALS['dl_state'] = new FutureState();")
            self.emit(0, "spawn(function () { try { await(new Future($GLOBALS['dl_state'])); } finally { t('DLF'); } });")
        else:
            self.emit(0, "$GLOBALS['dl_a'] = spawn(function () { suspend(); try { await($GLOBALS['dl_b']); } finally { t('DLF'); } });")
            self.emit(0, "$GLOBALS['dl_b'] = spawn(function () { suspend(); try { await($GLOBALS['dl_a']); } finally { t('DLF'); } });")

    def place_end(self, ind, lbl):
        """exit() or a fatal error: in a statement, a destructor, a finally
        block, an output handler, __toString, an onFinally handler."""
        self.placed_end = True
        self.features.add(self.mode)
        where = self.rng.choice(["statement", "statement", "destructor", "finally", "ob", "tostring", "onfinally"])
        self.features.add(f"{self.mode}-in-{where}")
        self.end_where = where
        if where == "statement":
            self.emit(ind, "end_here();")
        elif where == "destructor":
            self.objects += 1
            self.emit(ind, f"$o{self.objects} = new D({self.objects}, 6); unset($o{self.objects});")
        elif where == "finally":
            self.emit(ind, "try { suspend(); } finally { end_here(); }")
        elif where == "ob":
            self.emit(ind, 'ob_start(function ($buf) { end_here(); return $buf; }); echo "ob-out\n"; ob_end_flush();')
        elif where == "tostring":
            self.emit(ind, '$s = "x" . new TS(4);')
        else:
            self.emit(ind, "spawn(fn () => 1)->onFinally(function () { end_here(); });")

    # A coroutine body: its label's lines, every error caught, a finally.
    def body(self, ind, depth, lbl=None, args="", uses="", allow_escape=False):
        lbl = lbl or self.label()
        escape = allow_escape and self.mode == "escape" and self.chance(0.3)
        self.emit(ind, f"function ({args}){uses} {{")
        self.emit(ind + 1, f't("S {lbl}");')
        self.emit(ind + 1, "try {")
        self.stmts(ind + 2, lbl, depth + 1, self.rng.randint(1, 4))
        if escape:
            self.features.add("escape")
            if self.chance(0.2):
                self.features.add("graceful_shutdown")
                self.emit(ind + 2, "Async\\graceful_shutdown();")
            self.emit(ind + 2, f'throw new \\LogicException("escapes {lbl}");')
            self.emit(ind + 1, "} catch (\\RuntimeException $e) {")
        else:
            self.emit(ind + 1, "} catch (\\Throwable $e) {")
        self.emit(ind + 2, f't("X {lbl} " . get_class($e));')
        self.emit(ind + 1, "} finally {")
        fin = self.r(12)
        self.emit(ind + 2, f't("F {lbl}");')
        if fin == 0 and self.mode == "escape":
            self.features.add("escape")
            self.emit(ind + 2, f'throw new \\LogicException("finally {lbl}");')
        elif fin == 1:
            self.emit(ind + 2, "suspend();")
        self.emit(ind + 1, "}")
        self.emit(ind, "}")
        return lbl

    def stmts(self, ind, lbl, depth, n, in_main=False):
        for _ in range(n):
            if self.budget <= 0:
                return
            self.budget -= 1
            if self.mode in ("exit", "fatal") and not self.placed_end and self.chance(0.06):
                self.place_end(ind, lbl)
                continue
            if in_main:
                self.emit(ind, "try {")
                self.stmt(ind + 1, lbl, depth, in_main)
                self.emit(ind, "} catch (\\Throwable $e) { t('MX ' . get_class($e)); }")
            else:
                self.stmt(ind, lbl, depth, in_main)

    def step(self, ind, lbl):
        if lbl is None:
            return
        # Numbered in code order: a coroutine's steps appear in increasing
        # order, each at most once (an exception may skip some).
        k = self.steps.get(lbl, 0)
        self.steps[lbl] = k + 1
        self.emit(ind, f't("P {lbl} {k}");')

    def guarded(self, ind, text_fn):
        """Main-flow statements are wrapped so that a throw never ends main."""
        self.emit(ind, "try {")
        text_fn(ind + 1)
        self.emit(ind, "} catch (\\Throwable $e) { t('MX ' . get_class($e)); }")

    def stmt(self, ind, lbl, depth, in_main):
        kinds = ["step", "suspend", "delay", "spawn", "spawn", "cancel_before_start", "await_child",
                 "cancel_child", "protect", "try_finally", "dtor", "tostring", "ob", "c23", "error",
                 "generator", "gc_cycle", "scope", "group", "channel", "future", "pool", "task_set",
                 "iterate", "c4", "onfinally", "await_all", "throw_caught", "context", "iterate_throws",
                 "group_errors", "fiber"]
        if depth >= 3:
            kinds = ["step", "suspend", "delay", "dtor", "tostring", "error", "c23", "throw_caught"]
        k = self.rng.choice(kinds)
        getattr(self, "s_" + k)(ind, lbl, depth, in_main)

    # -- statements --------------------------------------------------------
    def s_step(self, ind, lbl, depth, in_main):
        self.step(ind, lbl)

    def s_context(self, ind, lbl, depth, in_main):
        """X1/X2: a scope's context is seen by its coroutines and child
        scopes; a coroutine's own context is not."""
        self.features.add("context")
        u = self.uniq()
        self.emit(ind, f"Async\\current_context()->set('k{u}', {u}, true); Async\\coroutine_context()->set('p{u}', {u}, true);")
        self.emit(ind, f"$cx = spawn(fn () => [Async\\current_context()->get('k{u}'), Async\\coroutine_context()->has('p{u}')]);")
        self.emit(ind, f"$sx = Scope::inherit(); $cy = $sx->spawn(fn () => Async\\current_context()->find('k{u}'));")
        self.emit(ind, f"$rx = await($cx); $ry = await($cy);")
        self.emit(ind, f"if (live() && $rx !== [{u}, false]) {{ v('X2 a coroutine sees ' . json_encode($rx) . ' of its scope and its spawner'); }}")
        self.emit(ind, f"if (live() && $ry !== {u}) {{ v('X2 a child scope does not see its parent scope\\'s value: ' . json_encode($ry)); }}")
        self.step(ind, lbl)

    def s_throw_caught(self, ind, lbl, depth, in_main):
        self.emit(ind, f'try {{ throw new \\RuntimeException("x"); }} catch (\\RuntimeException $e) {{ }}')
        self.step(ind, lbl)

    def s_suspend(self, ind, lbl, depth, in_main):
        self.emit(ind, "suspend();")
        self.step(ind, lbl)

    def s_delay(self, ind, lbl, depth, in_main):
        self.emit(ind, f"delay({self.r(4)});")
        self.step(ind, lbl)

    def spawn_expr(self, ind, depth, var=None, scope=None):
        """Writes `$var = spawn(body);` and returns the body's label."""
        target = f"{scope}->spawn(" if scope else "spawn("
        lhs = f"${var} = " if var else ""
        self.emit(ind, f"{lhs}{target}")
        lbl = self.body(ind + 1, depth, allow_escape=True)
        self.emit(ind, ");")
        return lbl

    def s_spawn(self, ind, lbl, depth, in_main):
        self.features.add("spawn")
        var = f"h{self.labels + 1}"
        self.spawn_expr(ind, depth, var)
        if self.chance(0.3):
            self.emit(ind, f"unset(${var});")
        self.step(ind, lbl)

    def s_cancel_before_start(self, ind, lbl, depth, in_main):
        """C7: cancelled before it starts, it never starts; awaiting it throws."""
        self.features.add("cancel")
        var = f"h{self.labels + 1}"
        child = self.spawn_expr(ind, depth, var)
        self.never_start.add(child)
        self.emit(ind, f"${var}->cancel();")
        self.emit(ind, f"if (!${var}->isCancellationRequested() && !${var}->isCancelled()) {{ v('C7 cancel() before the start is not recorded'); }}")
        self.emit(ind, f"try {{ await(${var}); v('C7 awaiting a coroutine cancelled before its start returned'); }}"
                       f" catch (CancellationError $e) {{ }}")
        self.emit(ind, f"if (live() && !${var}->isCancelled()) {{ v('C7 a coroutine cancelled before its start is not cancelled'); }}")
        self.step(ind, lbl)

    def s_await_child(self, ind, lbl, depth, in_main):
        self.features.add("await")
        var = f"h{self.labels + 1}"
        self.spawn_expr(ind, depth, var)
        self.step(ind, lbl)
        if self.chance(0.5):
            self.emit(ind, "suspend();")
        if self.chance(0.5):
            self.emit(ind, f"try {{ await(${var}, timeout({self.r(5) + 1})); }} catch (\\Async\\TimeoutException $e) {{ }}")
        else:
            self.emit(ind, f"await(${var});")
        self.step(ind, lbl)

    def s_cancel_child(self, ind, lbl, depth, in_main):
        self.features.add("cancel")
        var = f"h{self.labels + 1}"
        self.spawn_expr(ind, depth, var)
        self.emit(ind, "suspend();" if self.chance(0.6) else f"delay({self.r(3)});")
        self.emit(ind, f"${var}->cancel();")
        if self.chance(0.5):
            self.emit(ind, f"try {{ await(${var}); }} catch (CancellationError $e) {{ }}")
        self.step(ind, lbl)

    def s_protect(self, ind, lbl, depth, in_main):
        self.features.add("protect")
        self.emit(ind, "protect(function () {")
        self.emit(ind + 1, "try {")
        self.stmts(ind + 2, None, depth + 1, self.rng.randint(1, 3))
        self.emit(ind + 1, "} catch (\\RuntimeException|\\ErrorException $e) { }")
        self.emit(ind, "});")
        self.step(ind, lbl)

    def s_try_finally(self, ind, lbl, depth, in_main):
        self.features.add("finally")
        self.emit(ind, "try {")
        self.emit(ind + 1, "try {")
        self.stmts(ind + 2, lbl, depth + 1, self.rng.randint(1, 2))
        if self.chance(0.3):
            self.emit(ind + 2, 'throw new \\RuntimeException("in try");')
        self.emit(ind + 1, "} finally {")
        w = self.r(4)
        if w == 0:
            self.emit(ind + 2, 'throw new \\RuntimeException("in finally");')
        elif w == 1:
            self.emit(ind + 2, "suspend();")
        elif w == 2:
            self.emit(ind + 2, "delay(1);")
        self.emit(ind + 1, "}")
        self.emit(ind, "} catch (\\RuntimeException $e) { }")
        self.step(ind, lbl)

    def new_object(self, mode_choices):
        self.objects += 1
        return self.objects, self.rng.choice(mode_choices)

    def s_dtor(self, ind, lbl, depth, in_main):
        """Destructors that suspend, spawn, await or throw (C16)."""
        self.features.add("destructor")
        n, mode = self.new_object([0, 1, 2, 3, 4, 5] if self.mode == "escape" else [0, 1, 2, 3, 4])
        self.dtor_once.add(n)
        self.emit(ind, f"$o{n} = new D({n}, {mode});")
        if self.chance(0.5):
            self.emit(ind, "suspend();")
        self.emit(ind, f"try {{ unset($o{n}); }} catch (\\RuntimeException $e) {{ }}")
        self.step(ind, lbl)

    def s_gc_cycle(self, ind, lbl, depth, in_main):
        """A cycle holding a coroutine (C17), collected by gc_collect_cycles()."""
        self.features.add("gc")
        n, mode = self.new_object([0, 1, 2, 3, 4])
        self.dtor_once.add(n)
        self.emit(ind, f"$o{n} = new D({n}, {mode});")
        self.emit(ind, f"$o{n}->self = $o{n};")
        if self.chance(0.5):
            self.emit(ind, f"$o{n}->co = spawn(")
            self.body(ind + 1, depth + 1, uses=f" use ($o{n})")
            self.emit(ind, ");")
        else:
            self.emit(ind, f"$o{n}->co = spawn(")
            self.body(ind + 1, depth + 1)
            self.emit(ind, ");")
        self.emit(ind, f"unset($o{n});")
        if self.chance(0.7):
            self.emit(ind, "gc_collect_cycles();")
        self.step(ind, lbl)

    def s_tostring(self, ind, lbl, depth, in_main):
        self.features.add("tostring")
        mode = self.r(4)
        self.emit(ind, f'$s = "x" . new TS({mode}); if ($s !== "xts") {{ v("__toString gave " . $s); }}')
        self.step(ind, lbl)

    def s_ob(self, ind, lbl, depth, in_main):
        """An output buffer whose callback suspends, delays or throws."""
        self.features.add("ob")
        w = self.r(4)
        if w == 3 and self.mode != "escape":
            w = 0
        cb = {0: "", 1: "suspend();", 2: "delay(1);", 3: 'throw new \\LogicException("ob");'}[w]
        self.emit(ind, f'ob_start(function ($buf, $phase) {{ {cb} return $buf; }}, {self.rng.choice([0, 0, 16])});')
        self.emit(ind, 'echo "ob-out\\n";')
        if self.chance(0.5):
            self.emit(ind, "suspend();")
        self.emit(ind, 'echo "ob-more\\n";')
        self.emit(ind, "ob_end_flush();" if self.chance(0.7) else "ob_end_clean();")
        self.step(ind, lbl)

    def s_c23(self, ind, lbl, depth, in_main):
        """C23: a coroutine's output buffer keeps only its own output."""
        self.features.add("ob")
        self.emit(ind, '$lvl = ob_get_level(); ob_start(); echo "a"; suspend(); echo "b";')
        self.emit(ind, "if (live() && ob_get_level() !== $lvl + 1) { v('C23 the output buffer level changed across a suspension'); }")
        self.emit(ind, '$got = ob_get_clean(); if ($got !== "ab") { v("C23 a buffer holds " . json_encode($got)); }')
        self.step(ind, lbl)

    def s_error(self, ind, lbl, depth, in_main):
        self.features.add("error")
        self.emit(ind, 'try { trigger_error("rw", E_USER_NOTICE); } catch (\\ErrorException $e) { }')
        self.step(ind, lbl)

    def s_generator(self, ind, lbl, depth, in_main):
        self.features.add("generator")
        n = self.rng.randint(1, 4)
        w = self.rng.choice(["suspend();", "delay(1);", "await(spawn(fn () => 1));"])
        self.emit(ind, f"$gen = (function () {{ for ($i = 0; $i < {n}; $i++) {{ yield $i; {w} }} }})();")
        self.emit(ind, "$want = 0; foreach ($gen as $gv) { if ($gv !== $want) { v('generator order'); } $want++; }")
        self.emit(ind, f"if ($want !== {n}) {{ v('generator count'); }}")
        self.step(ind, lbl)

    def s_onfinally(self, ind, lbl, depth, in_main):
        """C11: onFinally handlers have all run before an awaiter resumes."""
        self.features.add("onfinally")
        var = f"h{self.labels + 1}"
        child = self.spawn_expr(ind, depth, var)
        throws = self.mode == "escape" and self.chance(0.2)
        self.onfinally_once.add(child)
        extra = ' throw new \\LogicException("onFinally");' if throws else ""
        if throws:
            self.features.add("escape")
        self.emit(ind, f"${var}->onFinally(function ($c) {{ $GLOBALS['of_{child}'] = true; t('OF {child}');{extra} }}); t('ON {child}');")
        self.emit(ind, f"try {{ await(${var}); }} catch (\\Throwable $e) {{ }}")
        self.emit(ind, f"if (live() && empty($GLOBALS['of_{child}'])) {{ v('C11 an awaiter resumed before the onFinally handlers ran'); }}")
        self.step(ind, lbl)

    def s_c4(self, ind, lbl, depth, in_main):
        """C4: awaiting a failed coroutine throws the same error object, every time."""
        self.features.add("await")
        self.scopes += 1
        s = f"sc{self.scopes}"
        child = self.label()
        self.emit(ind, f"${s} = new Scope(); ${s}->setExceptionHandler(function ($sc, $co, $e) {{ t('EHX'); }});")
        self.emit(ind, f"$f{child} = ${s}->spawn(function () {{ t('S {child}'); try {{ suspend(); throw $GLOBALS['E_{child}'] = new \\RuntimeException('{child}'); }} finally {{ t('F {child}'); }} }});")
        self.emit(ind, "suspend();" if self.chance(0.5) else "")
        self.emit(ind, f"foreach ([1, 2] as $_) {{ try {{ await($f{child}); v('C4 await returned'); }} catch (\\RuntimeException $e) {{"
                       f" if ($e !== ($GLOBALS['E_{child}'] ?? null)) {{ v('C4 not the same error object'); }} }} catch (\\Throwable $e) {{ }} }}")
        self.step(ind, lbl)

    def scope_ops(self, ind, s, depth):
        op = self.r(8)
        if op == 0:
            self.emit(ind, f"${s}->cancel();")
        elif op == 1:
            self.emit(ind, f"${s}->dispose();")
        elif op == 2:
            self.emit(ind, f"${s}->disposeSafely();")
        elif op == 3:
            self.emit(ind, f"${s}->disposeAfterTimeout({self.r(5) + 1});")
        elif op == 4:
            self.emit(ind, f"try {{ ${s}->awaitCompletion(timeout({self.r(8) + 1})); }} catch (\\Throwable $e) {{ }}")
        elif op == 5:
            self.emit(ind, f"unset(${s});")
        elif self.chance(0.5):
            self.emit(ind, f"${s}->cancel(); try {{ ${s}->awaitAfterCancellation(function ($e) {{ t('AAC'); }}, timeout(50)); }} catch (\\Throwable $e) {{ }}")
        else:
            self.emit(ind, f"${s}->asNotSafely(); unset(${s});")

    def s_scope(self, ind, lbl, depth, in_main):
        self.features.add("scope")
        self.scopes += 1
        s = f"sc{self.scopes}"
        kind = self.r(3)
        if kind == 2:
            self.emit(ind, f"${s}p = new Scope(); ${s}p->setChildScopeExceptionHandler(function ($sc, $co, $e) {{ t('ECS ' . get_class($e)); }});")
        ctor = {0: "new Scope()", 1: "Scope::inherit()", 2: f"Scope::inherit(${s}p)"}[kind]
        self.emit(ind, f"${s} = {ctor};")
        if self.chance(0.5):
            self.emit(ind, f"${s}->setExceptionHandler(function ($sc, $co, $e) {{ t('EHS ' . get_class($e)); }});")
        if self.chance(0.4):
            self.scope_finally.add(s)
            self.emit(ind, f"${s}->onFinally(function () {{ t('SF {s}'); }}); t('SN {s}');")
        for _ in range(self.rng.randint(1, 3)):
            self.emit(ind, f"${s}->spawn(")
            self.body(ind + 1, depth + 1)
            self.emit(ind, ");")
        if self.chance(0.5):
            self.emit(ind, "suspend();")
        if self.chance(0.3):
            # S6: children first.
            self.emit(ind, f"$inner = Scope::inherit(${s}); $GLOBALS['s6_{s}'] = [];")
            self.emit(ind, f"${s}->spawn(function () {{ try {{ delay(10000); }} catch (CancellationError $e) {{ $GLOBALS['s6_{s}'][] = 'parent'; }} }});")
            self.emit(ind, f"$inner->spawn(function () {{ try {{ delay(10000); }} catch (CancellationError $e) {{ $GLOBALS['s6_{s}'][] = 'child'; }} }});")
            self.emit(ind, "suspend();")
            self.emit(ind, f"${s}->cancel(); suspend(); suspend(); suspend();")
            self.emit(ind, f"if (live() && ($GLOBALS['s6_{s}'][0] ?? 'child') !== 'child') {{ v('S6 a parent scope\\'s coroutine was cancelled before its child scope\\'s: ' . implode(',', $GLOBALS['s6_{s}'])); }}")
            self.emit(ind, "unset($inner);")
        else:
            self.scope_ops(ind, s, depth)
        self.step(ind, lbl)

    def s_group(self, ind, lbl, depth, in_main):
        self.features.add("group")
        self.groups += 1
        g = f"g{self.groups}"
        conc = self.rng.choice(["null", "1", "2"])
        self.emit(ind, f"${g} = new TaskGroup({conc});")
        n = self.rng.randint(1, 4)
        for i in range(n):
            self.emit(ind, f"${g}->spawnWithKey('k{i}', ")
            self.body(ind + 1, depth + 1)
            self.emit(ind, ");")
        if self.chance(0.3):
            self.group_finally.add(g)
            self.emit(ind, f"${g}->finally(function () {{ t('GF {g}'); }});")
        how = self.r(6)
        if how == 0:
            self.emit(ind, f"$res = await(${g}->all()); if (live() && count($res) !== {n}) {{ v('G1 all() gave ' . count($res) . ' results of {n}'); }}")
        elif how == 1:
            self.emit(ind, f"await(${g}->race());")
        elif how == 2:
            self.emit(ind, f"await(${g}->any());")
        elif how == 3:
            self.emit(ind, f"${g}->close(); $seen = []; foreach (${g} as $k => $pair) {{ if (isset($seen[$k])) {{ v('G1 a key delivered twice'); }} $seen[$k] = 1; }}")
            self.emit(ind, f"if (live() && count($seen) !== {n}) {{ v('G1 iteration gave ' . count($seen) . ' of {n}'); }}")
        elif how == 4:
            self.emit(ind, f"${g}->cancel();")
        else:
            self.emit(ind, f"${g}->dispose();")
        if self.chance(0.3):
            self.emit(ind, f"unset(${g});")
        self.step(ind, lbl)

    def s_channel(self, ind, lbl, depth, in_main):
        """T1: one producer, values received once and in order."""
        self.features.add("channel")
        cap = self.r(4)
        n = self.rng.randint(1, 6)
        w = self.rng.choice(["", "suspend();", "delay(1);"])
        self.emit(ind, f"$ch = new Channel({cap}); $got = [];")
        self.emit(ind, f"$prod = helper()->spawn(function () use ($ch) {{ try {{ for ($i = 0; $i < {n}; $i++) {{ $ch->send($i); {w} }} }} catch (\\Async\\ChannelException $e) {{ }} finally {{ $ch->close(); }} }});")
        if self.chance(0.5):
            self.emit(ind, "try { foreach ($ch as $cv) { $got[] = $cv; } } finally { $ch->close(); }")
        else:
            self.emit(ind, "try { while (true) { $got[] = $ch->recv(); } } catch (\\Async\\ChannelException $e) { } finally { $ch->close(); }")
        self.emit(ind, f"if (live() && $got !== range(0, {n - 1})) {{ v('T1 received ' . json_encode($got)); }}")
        self.step(ind, lbl)

    def s_future(self, ind, lbl, depth, in_main):
        """T2/C4: every awaiter of a future gets the same value or error object."""
        self.features.add("future")
        fail = self.chance(0.4)
        self.emit(ind, "$st = new FutureState(); $fu = new Future($st);")
        if fail:
            # Awaiters may all be cancelled: the failure is then nobody's (T2 would report it).
            self.emit(ind, "$err = new \\RuntimeException('fut'); $st->ignore();")
            self.emit(ind, "helper()->spawn(function () use ($st, $err) { delay(1); $st->error($err); });")
        else:
            self.emit(ind, "helper()->spawn(function () use ($st) { suspend(); $st->complete(42); });")
        self.emit(ind, "$aw = [];")
        for _ in range(self.rng.randint(0, 2)):
            self.emit(ind, "$aw[] = helper()->spawn(function () use ($fu) { try { return await($fu); } catch (\\RuntimeException $e) { return $e; } });")
        self.emit(ind, "try { $fv = await($fu); } catch (\\RuntimeException $e) { $fv = $e; }")
        want = "$err" if fail else "42"
        self.emit(ind, f"if (live() && $fv !== {want}) {{ v('T2 an awaiter of a future got another outcome'); }}")
        self.emit(ind, f"foreach ($aw as $a) {{ if (await($a) !== {want}) {{ v('T2 a second awaiter got another outcome'); }} }}")
        if self.chance(0.3):
            self.emit(ind, f"$m = await($fu->map(fn ($x) => $x + 1)->catch(fn ($e) => 0)); if (live() && $m !== {'0' if fail else '43'}) {{ v('T2 map/catch'); }}")
        self.step(ind, lbl)

    def s_pool(self, ind, lbl, depth, in_main):
        """T3: at most max lent at once; everything lent comes back."""
        self.features.add("pool")
        mx = self.rng.randint(1, 3)
        n = self.rng.randint(1, 5)
        u = self.uniq()
        w = self.rng.choice(["suspend();", "delay(1);", "suspend(); suspend();"])
        self.emit(ind, f"$pool = new Pool(function () {{ static $i = 0; return ++$i; }}, max: {mx}); $GLOBALS['lent{u}'] = 0; $ws = [];")
        self.emit(ind, f"for ($i = 0; $i < {n}; $i++) {{ $ws[] = helper()->spawn(function () use ($pool) {{ $r = $pool->acquire();"
                       f" if (++$GLOBALS['lent{u}'] > {mx}) {{ v('T3 more than max lent'); }} try {{ {w} }} finally {{ $GLOBALS['lent{u}']--; $pool->release($r); }} }}); }}")
        if self.chance(0.3):
            self.emit(ind, "suspend(); $ws[0]->cancel();")
        self.emit(ind, "foreach ($ws as $w) { try { await($w); } catch (CancellationError $e) { } }")
        self.emit(ind, "if (live() && $pool->activeCount() !== 0) { v('T3 a resource still lent after every borrower ended: ' . $pool->activeCount()); }")
        if self.chance(0.5):
            self.emit(ind, "$pool->close();")
        self.step(ind, lbl)

    def s_task_set(self, ind, lbl, depth, in_main):
        """T4: each task's result delivered once."""
        self.features.add("task_set")
        n = self.rng.randint(1, 4)
        self.emit(ind, f"$ts = new TaskSet({self.rng.choice(['null', '1', '2'])});")
        for i in range(n):
            self.emit(ind, f"$ts->spawnWithKey({i}, function () {{ {self.rng.choice(['', 'suspend();', 'delay(1);'])} return {i}; }});")
        if self.chance(0.5):
            self.emit(ind, f"$seen = []; for ($i = 0; $i < {n}; $i++) {{ $r = await($ts->joinNext()); if (isset($seen[$r])) {{ v('T4 a result delivered twice'); }} $seen[$r] = 1; }}")
        else:
            self.emit(ind, f"$ts->close(); $seen = []; foreach ($ts as $k => $pair) {{ if (live() && (isset($seen[$k]) || $pair[0] !== $k)) {{ v('T4 iteration ' . json_encode($pair[0])); }} $seen[$k] = 1; }}"
                           f" if (live() && count($seen) !== {n}) {{ v('T4 iteration gave ' . count($seen) . ' of {n}'); }}")
        self.step(ind, lbl)

    def s_iterate(self, ind, lbl, depth, in_main):
        """T5: every item once, no more than the concurrency at a time."""
        self.features.add("iterate")
        n = self.rng.randint(0, 6)
        c = self.rng.randint(0, 3)
        w = self.rng.choice(["", "suspend();", "delay(1);"])
        u = self.uniq()
        self.emit(ind, f"$GLOBALS['it_seen{u}'] = []; $GLOBALS['it_now{u}'] = 0;")
        self.emit(ind, f"iterate({'range(1, %d)' % n if n else '[]'}, function ($v, $k) {{ $GLOBALS['it_now{u}']++;"
                       + (f" if ($GLOBALS['it_now{u}'] > {c}) {{ v('T5 more than the concurrency at once'); }}" if c else "")
                       + f" {w} $GLOBALS['it_seen{u}'][] = $v; $GLOBALS['it_now{u}']--; }}, {c});")
        if n:
            self.emit(ind, f"$s = $GLOBALS['it_seen{u}']; sort($s); if (live() && $s !== range(1, {n})) {{ v('T5 items seen: ' . json_encode($s)); }}")
        self.step(ind, lbl)

    def s_fiber(self, ind, lbl, depth, in_main):
        """C13: a Fiber inside a coroutine, which waits inside it; suspended
        and left unfinished, it is destroyed cleanly (its finally runs)."""
        self.features.add("fiber")
        u = self.uniq()
        w = lambda: self.rng.choice(["", "suspend();", "delay(1);", "await(spawn(fn () => 1));"])
        self.emit(ind, f"$fb = new \\Fiber(function ($a) {{ t('FS {u}'); try {{ {w()} $b = \\Fiber::suspend($a + 1); {w()} return $b * 2; }} finally {{ t('FF {u}'); }} }});")
        self.emit(ind, f"$r1 = $fb->start(1); if (live() && $r1 !== 2) {{ v('C13 Fiber::suspend() gave ' . json_encode($r1)); }}")
        self.emit(ind, w())
        if self.chance(0.7):
            self.emit(ind, "$fb->resume(5); if (live() && (!$fb->isTerminated() || $fb->getReturn() !== 10)) { v('C13 a Fiber did not return what it should'); }")
        else:
            self.emit(ind, "unset($fb);")
        self.step(ind, lbl)

    def s_iterate_throws(self, ind, lbl, depth, in_main):
        """T5: a callback that throws stops the iteration; its exception (the
        same object, C4) is thrown by iterate() once the others ended."""
        self.features.add("iterate")
        n = self.rng.randint(1, 5)
        j = self.rng.randint(1, n)
        c = self.rng.randint(0, 3)
        u = self.uniq()
        w = self.rng.choice(["", "suspend();", "delay(1);"])
        self.emit(ind, f"try {{ iterate(range(1, {n}), function ($v) {{ {w} if ($v === {j}) {{ throw $GLOBALS['itx{u}'] = new \\RuntimeException('it'); }} }}, {c});"
                       f" v('T5 iterate() returned though a callback threw'); }}"
                       f" catch (\\RuntimeException $e) {{ if ($e !== ($GLOBALS['itx{u}'] ?? null)) {{ v('T5 iterate() threw another exception'); }} }}")
        self.step(ind, lbl)

    def s_group_errors(self, ind, lbl, depth, in_main):
        """G1: all(true) gives the successes; getErrors() the failures, in
        spawn order, and reading them handles them."""
        self.features.add("group")
        n_ok = self.rng.randint(0, 3)
        n_err = self.rng.randint(1, 3)
        conc = self.rng.choice(["null", "1", "2"])
        # In the helpers' scope: cancelled before it reads the errors, the
        # waiter drops the group and its errors go to that scope (G1).
        self.emit(ind, f"$ge = new TaskGroup({conc}, null, helper());")
        keys = [("ok", i) for i in range(n_ok)] + [("err", i) for i in range(n_err)]
        self.rng.shuffle(keys)
        for kind, i in keys:
            w = self.rng.choice(["", "suspend();", "delay(1);"])
            if kind == "ok":
                self.emit(ind, f"$ge->spawnWithKey('ok{i}', function () {{ {w} return {i}; }});")
            else:
                self.emit(ind, f"$ge->spawnWithKey('err{i}', function () {{ {w} throw new \\RuntimeException('e{i}'); }});")
        want_err = [f"err{i}" for kind, i in keys if kind == "err"]
        self.emit(ind, "$res = await($ge->all(true)); $errs = $ge->getErrors();")
        self.emit(ind, f"if (live() && (count($res) !== {n_ok} || array_keys($errs) !== {want_err!r})) {{"
                       f" v('G1 all(true) gave ' . json_encode(array_keys($res)) . ' and errors ' . json_encode(array_keys($errs))); }}")
        self.step(ind, lbl)

    def s_await_all(self, ind, lbl, depth, in_main):
        self.features.add("await_many")
        n = self.rng.randint(1, 3)
        self.emit(ind, "$many = [];")
        for i in range(n):
            self.emit(ind, f"$many[] = spawn(function () {{ {self.rng.choice(['', 'suspend();', 'delay(1);'])} return {i}; }});")
        if self.chance(0.5):
            self.emit(ind, f"[$res, $errs] = await_all($many); if (live() && $res !== range(0, {n - 1})) {{ v('G2 await_all gave ' . json_encode($res)); }}")
        else:
            self.emit(ind, "$one = await_any_or_fail($many); if (!is_int($one)) { v('G2 await_any_or_fail'); }")
        self.step(ind, lbl)


def generate(seed: int) -> Program:
    p = Program(seed)
    p.source = p.generate()
    return p
