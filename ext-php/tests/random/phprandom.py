#!/usr/bin/env python3
"""php-random: the PHP-level randomized tester (issue 21, item 6).

Writes PHP programs from a grammar of the public API and of PHP's hostile
places (grammar.py), runs each with async.so on every backend asked for,
and checks the run against a model (model.py): no crash, no hang, no leak
or memory error under valgrind, the deadlock report exactly when the
program deadlocks, the order the rules fix (C1, C2) and the invariants
everywhere else (every coroutine's lines once and in order, finally blocks,
destructors, onFinally handlers and shutdown functions once, inline checks
of C4, C7, C11, C23, S6, G1, G2, T1-T5).

    phprandom.py --php PHP --ext ASYNC_SO --backend-dir DIR --reactor uv[,uring,ev]
                 [--seed S|time] [--programs N] [--seconds T]
                 [--valgrind-programs K] [--suppressions FILE]
                 [--program-seed P] [--valgrind] [--print] [--keep-going] [--tap]

Each program's seed derives from the run's seed and the program's index; a
failure prints the program's seed and the one command that replays it
(the same text; a run's timing may still differ, the delays being real).
--print writes the program's text and exits. --seconds stops starting new
programs after T seconds; --programs caps their number. The first K
programs of each backend also run under valgrind (USE_ZEND_ALLOC=0,
--leak-check=full): any error or definite leak fails.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grammar  # noqa: E402
import model  # noqa: E402

WALL = 15          # seconds a program may take
WALL_VALGRIND = 180


def program_seed(run_seed, index):
    return random.Random(run_seed * 1_000_003 + index).getrandbits(62)


def run_one(a, prog, reactor, valgrind, tmp):
    path = Path(tmp) / f"p{prog.seed}.php"
    path.write_text(prog.source)
    cmd = [a.php, "-n", "-d", f"extension={os.path.abspath(a.ext)}",
           "-d", f"async.reactor={reactor}",
           "-d", f"async.backend_dir={os.path.abspath(a.backend_dir)}",
           "-d", "display_errors=1", "-d", "error_reporting=-1", str(path)]
    env = dict(os.environ)
    vlog = Path(tmp) / f"vg{prog.seed}.log"
    if valgrind:
        vg = ["valgrind", "-q", "--leak-check=full", "--show-leak-kinds=definite",
              "--errors-for-leak-kinds=definite", "--trace-children=no",
              f"--log-file={vlog}"]
        if a.suppressions:
            vg.append(f"--suppressions={os.path.abspath(a.suppressions)}")
        cmd = vg + cmd
        env["USE_ZEND_ALLOC"] = "0"
        env["ZEND_DONT_UNLOAD_MODULES"] = "1"
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         start_new_session=True, text=True, errors="replace")
    timed_out = False
    try:
        out, err = p.communicate(timeout=WALL_VALGRIND if valgrind else WALL)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(p.pid, signal.SIGKILL)   # the program's own process group
        out, err = p.communicate()
    took = time.monotonic() - t0
    fails = model.check(prog, p.returncode, out, err, timed_out)
    if valgrind and vlog.exists():
        text = vlog.read_text(errors="replace")
        # Valgrind 3.19 does not know pidfd_open (syscall 434); see run_phpt.py.
        lines = [l for l in text.splitlines()
                 if "unhandled amd64-linux syscall: 434" not in l
                 and not l.split(" ", 1)[-1].startswith(("You may be able", "your Linux kernel",
                                                         "that you need", "This may be", "or because"))]
        lines = [l for l in lines if l.strip() and not l.startswith("--")]
        if lines:
            fails.append("valgrind:\n      " + "\n      ".join(lines[:40]))
    return fails, out, err, took


def replay_command(a, reactor, seed, valgrind):
    me = os.path.relpath(__file__)
    parts = [sys.executable if False else "python3", me, "--php", a.php, "--ext", a.ext,
             "--backend-dir", a.backend_dir, "--reactor", reactor, "--program-seed", str(seed)]
    if valgrind:
        parts.append("--valgrind")
        if a.suppressions:
            parts += ["--suppressions", a.suppressions]
    return " ".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--php", default="php")
    ap.add_argument("--ext", default="build/ext-php/async.so")
    ap.add_argument("--backend-dir", default="build/backends")
    ap.add_argument("--reactor", default="uv")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--programs", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--valgrind-programs", type=int, default=0)
    ap.add_argument("--suppressions")
    ap.add_argument("--program-seed", type=int)
    ap.add_argument("--valgrind", action="store_true", help="with --program-seed: run it under valgrind")
    ap.add_argument("--print", action="store_true")
    ap.add_argument("--keep-going", action="store_true")
    ap.add_argument("--tap", action="store_true")
    ap.add_argument("--save", help="a folder where failing programs are copied")
    a = ap.parse_args()

    if a.program_seed is not None and a.print:
        sys.stdout.write(grammar.generate(a.program_seed).source)
        return 0
    run_seed = int(time.time() * 1000) if a.seed == "time" else int(a.seed)
    reactors = a.reactor.split(",")
    if a.program_seed is None and not a.programs and not a.seconds:
        a.programs = 100
    if a.valgrind and a.program_seed is None:
        a.valgrind_programs = 10 ** 9
    if a.valgrind and not shutil.which("valgrind"):
        print("valgrind is not installed")
        return 2
    if a.valgrind_programs and not shutil.which("valgrind"):
        a.valgrind_programs = 0

    print(f"# php-random: run seed {run_seed}, reactors {','.join(reactors)}", flush=True)
    total, failed, features, modes = 0, 0, {}, {}
    t_start = time.monotonic()
    tap_n = 0
    interrupted = False
    with tempfile.TemporaryDirectory(prefix="php-random-") as tmp:
      try:
        for reactor in reactors:
            i = 0
            r_start = time.monotonic()
            r_budget = a.seconds / len(reactors) if a.seconds else 0
            while True:
                if a.program_seed is not None:
                    if i > 0:
                        break
                    seed = a.program_seed
                else:
                    if a.programs and i >= a.programs:
                        break
                    if r_budget and time.monotonic() - r_start >= r_budget:
                        break
                    seed = program_seed(run_seed, i)
                prog = grammar.generate(seed)
                # PHP itself leaks under USE_ZEND_ALLOC=0 after a compile
                # error (a plain script with eval()'s "Cannot redeclare"
                # does): fatal programs are not run under valgrind.
                vg = (a.valgrind if a.program_seed is not None else i < a.valgrind_programs) and prog.mode != "fatal"
                fails, out, err, took = run_one(a, prog, reactor, vg, tmp)
                i += 1
                total += 1
                modes[prog.mode] = modes.get(prog.mode, 0) + 1
                for f in prog.features:
                    features[f] = features.get(f, 0) + 1
                tap_n += 1
                what = f"{reactor} program {seed} ({prog.mode}{', valgrind' if vg else ''}, {took * 1000:.0f} ms)"
                if fails:
                    failed += 1
                    print(f"not ok {tap_n} - {what}" if a.tap else f"FAIL {what}")
                    for f in fails:
                        print(f"#   {f}")
                    print(f"#   replay: {replay_command(a, reactor, seed, vg)}")
                    print(f"#   text:   {replay_command(a, reactor, seed, False)} --print")
                    tail_out = out[-1500:].replace("\n", "\n#     ")
                    print(f"#   stdout (end): {tail_out}")
                    if a.save:
                        Path(a.save).mkdir(parents=True, exist_ok=True)
                        (Path(a.save) / f"{reactor}-{seed}.php").write_text(prog.source)
                        (Path(a.save) / f"{reactor}-{seed}.out").write_text(out + "\n--- stderr\n" + err)
                    sys.stdout.flush()
                    if not a.keep_going and not a.tap:
                        break
                elif a.tap:
                    print(f"ok {tap_n} - {what}", flush=True)
                elif a.program_seed is not None:
                    print(f"ok {what}")
                if not a.tap and total % 500 == 0:
                    print(f"# progress: {total} programs, {failed} failed, {time.monotonic() - t_start:.0f}s", flush=True)
      except KeyboardInterrupt:
        interrupted = True
    took = time.monotonic() - t_start
    if a.tap:
        print(f"1..{tap_n}")
    print(f"# php-random: {total} programs, {failed} failed, {took:.0f}s"
          + (" (interrupted)" if interrupted else "") + "; modes "
          + ", ".join(f"{k} {v}" for k, v in sorted(modes.items())))
    print("# features: " + ", ".join(f"{k} {v}" for k, v in sorted(features.items())), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
