#!/usr/bin/env python3
"""The model's own test: each check of model.py must fail a run that breaks
it (a tester whose checks cannot fail proves nothing). Runs no PHP: it
feeds check() runs made up from a generated program's expectations.
Prints TAP."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grammar  # noqa: E402
import model  # noqa: E402


def program(mode, want_rr=False):
    for seed in range(1, 100000):
        p = grammar.generate(seed)
        if p.mode == mode and (p.rr or not want_rr):
            return p
    raise RuntimeError("no program of mode " + mode)


def err(lines):
    return "".join(f"@T {l}\n" for l in lines)


def main():
    cases = []
    clean = program("clean", want_rr=True)
    rr = model.simulate_round_robin(clean.rr)
    good = ["S c1", "P c1 0", "F c1", "ME", "SD"]
    good_rr = rr + good
    cases.append(("a correct clean run passes", clean, 0, "", err(good_rr), False, True))
    cases.append(("a crash fails", clean, -11, "", err(good_rr), False, False))
    cases.append(("a hang fails", clean, 0, "", err(good_rr), True, False))
    cases.append(("a coroutine started twice fails", clean, 0, "", err(rr + ["S c1", "S c1", "F c1", "ME", "SD"]), False, False))
    cases.append(("a missing finally fails", clean, 0, "", err(rr + ["S c1", "ME", "SD"]), False, False))
    cases.append(("a finally run twice fails", clean, 0, "", err(rr + ["S c1", "F c1", "F c1", "ME", "SD"]), False, False))
    cases.append(("steps out of order fail", clean, 0, "", err(rr + ["S c1", "P c1 1", "P c1 0", "F c1", "ME", "SD"]), False, False))
    cases.append(("a step after the finally fails", clean, 0, "", err(rr + ["S c1", "F c1", "P c1 0", "ME", "SD"]), False, False))
    cases.append(("the shutdown function twice fails", clean, 0, "", err(good_rr + ["SD"]), False, False))
    cases.append(("no shutdown function fails", clean, 0, "", err(rr + ["ME"]), False, False))
    cases.append(("an inline rule check fails", clean, 0, "", err(good_rr + ["V C4 not the same error object"]), False, False))
    if len(rr) >= 2:
        swapped = rr[:]
        swapped[0], swapped[-1] = swapped[-1], swapped[0]
        if swapped != rr:
            cases.append(("another round-robin order fails (C1, C2)", clean, 0, "", err(swapped + good), False, False))
    cases.append(("a deadlock report in a clean program fails", clean, 255,
                  "Fatal error: Uncaught Async\\DeadlockError: Deadlock detected", err(good_rr), False, False))
    cases.append(("an unexpected warning fails", clean, 0, "Warning: Undefined variable $x in f on line 1", err(good_rr), False, False))
    cases.append(("a status other than 0 fails", clean, 1, "", err(good_rr), False, False))
    dead = program("deadlock")
    dl_ok = ["DLF", "ME", "SD"]
    cases.append(("a deadlock report passes", dead, 255, "Fatal error: Uncaught Async\\DeadlockError: Deadlock detected",
                  err(model.simulate_round_robin(dead.rr) + dl_ok), False, True))
    cases.append(("a missing deadlock report fails (C14)", dead, 0, "", err(model.simulate_round_robin(dead.rr) + dl_ok), False, False))
    fatal = program("fatal")
    cases.append(("user code after a fatal error fails (C22)", fatal, 255, "Fatal error: x",
                  err(["S c1", "FATAL", "F c1", "SD"]), False, False))
    cases.append(("a fatal error followed by the shutdown function passes", fatal, 255, "Fatal error: x",
                  err(["S c1", "FATAL", "SD"]), False, True))
    ex = program("exit")
    cases.append(("another exit status fails (C15)", ex, 9, "", err(["EXIT", "SD"]), False, False))

    print(f"1..{len(cases)}")
    bad = 0
    for i, (name, prog, rc, out, e, hang, want_pass) in enumerate(cases, 1):
        fails = model.check(prog, rc, out, e, hang)
        ok = (not fails) == want_pass
        bad += not ok
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok:
            for f in fails:
                print(f"#   {f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
