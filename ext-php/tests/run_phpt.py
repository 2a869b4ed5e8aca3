#!/usr/bin/env python3
"""Runs phpt tests with PHP's own run-tests.php against the freshly built
async.so and prints the results as TAP, one line per phpt, so that meson
counts every test case (and CI's summary with it).

    run_phpt.py --php PHP --run-tests RUN_TESTS --ext ASYNC_SO [--ext OTHER_SO ...]
                --backend-dir DIR --reactor uv|uring|ev|PATH
                [--valgrind] [--jobs N] [--ini NAME=VALUE ...] TEST_DIR_OR_FILE...

The tests run with no php.ini (-n), the extensions loaded by absolute path
in the order given (async.so first; a plugin such as async_pgsql.so after
it) and the backends taken from the build tree; --ini adds a setting to every
test (zend_extension=opcache.so and opcache.jit=tracing for the OPcache
stage). With --valgrind, run-tests.php
runs each test under valgrind --leak-check=full with USE_ZEND_ALLOC=0 (its
-m mode) and fails a test that leaks or shows memory errors.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


VALGRIND_WRAPPER = """#!/usr/bin/env python3
import re, subprocess, sys
rc = subprocess.call(["@REAL@"] + sys.argv[1:])
for arg in sys.argv[1:]:
    if arg.startswith("--log-file="):
        path = arg.split("=", 1)[1]
        try:
            text = open(path).read()
        except OSError:
            break
        text = re.sub(r"--\\d+-- WARNING: unhandled amd64-linux syscall: 434\\n(--\\d+-- .*\\n){4}", "", text)
        open(path, "w").write(text)
sys.exit(rc)
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--php", required=True)
    ap.add_argument("--run-tests", required=True)
    ap.add_argument("--ext", required=True, action="append")
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--reactor", required=True)
    ap.add_argument("--valgrind", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--suppressions")
    ap.add_argument("--ini", action="append", default=[])
    ap.add_argument("tests", nargs="+")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="phpt-") as tmp:
        # run-tests.php writes its files next to each test: work on a copy,
        # so that suites can run in parallel and the source tree stays clean.
        copies = []
        for t in a.tests:
            src = Path(t).resolve()
            if src.is_dir():
                dst = Path(tmp) / "tests" / src.name
                shutil.copytree(src, dst)
            else:
                # A single file keeps its folder (and the folder's *.inc
                # helpers), so that __DIR__ . '/../include/...' and
                # __DIR__ . '/helper.inc' resolve as in a folder run.
                dst = Path(tmp) / "tests" / src.parent.name / src.name
                if not dst.parent.exists():
                    dst.parent.mkdir(parents=True)
                    for inc in src.parent.glob("*.inc"):
                        shutil.copy(inc, dst.parent / inc.name)
                shutil.copy(src, dst)
            copies.append(str(dst))
        # Helpers shared by tests of every area (tests/include/*.inc, e.g. the
        # addresses of the real servers of tests/services), reached as
        # __DIR__ . '/../include/...'.
        shared = Path(__file__).resolve().parent / "include"
        if shared.is_dir() and not (Path(tmp) / "tests" / "include").exists():
            shutil.copytree(shared, Path(tmp) / "tests" / "include")
        base = Path(tmp) / "tests"
        results = Path(tmp) / "results.txt"
        cmd = [a.php, "-n", a.run_tests, "-q", "-n", "-p", a.php,
               "--show-diff", "--no-color", "-W", str(results),
               *[arg for ext in a.ext for arg in ("-d", f"extension={os.path.abspath(ext)}")],
               "-d", f"async.reactor={a.reactor}",
               "-d", f"async.backend_dir={os.path.abspath(a.backend_dir)}",
               *[arg for setting in a.ini for arg in ("-d", setting)]]
        if a.valgrind:
            cmd.append("-m")
        if a.jobs > 1:
            cmd.append(f"-j{a.jobs}")
        cmd += copies
        env = dict(os.environ)
        if a.valgrind:
            # Valgrind 3.19 (Debian 12) does not know pidfd_open (syscall
            # 434), which the uv backend probes for: it prints a 5-line
            # "unhandled syscall" notice into every log, and run-tests.php
            # takes any log output as a failure. A wrapper named valgrind,
            # first on PATH, runs the real one and removes exactly that
            # notice; leaks and memory errors stay in the log.
            real = shutil.which("valgrind")
            wrap_dir = Path(tmp) / "bin"
            wrap_dir.mkdir()
            wrapper = wrap_dir / "valgrind"
            wrapper.write_text(VALGRIND_WRAPPER.replace("@REAL@", real))
            wrapper.chmod(0o755)
            env["PATH"] = f"{wrap_dir}:{env.get('PATH', '')}"
        env["NO_INTERACTION"] = "1"
        env["TEST_PHP_EXECUTABLE"] = a.php
        if a.valgrind:
            # run-tests.php traces children (--trace-children=yes) into the
            # test's one log file. A program a test executes (sh, sleep,
            # another php) gets a valgrind of its own that opens that file
            # again and truncates it: what the PHP process writes afterwards
            # (pidfd_open's notice at a proc_close) lands behind a hole of
            # NUL bytes, and the test is reported as leaking. Executed
            # programs are not ours to check: they run untraced. Forked
            # PHP children (pcntl_fork, no exec) are still checked.
            opts = ["--trace-children-skip=*"]
            if a.suppressions:
                opts.append(f"--suppressions={os.path.abspath(a.suppressions)}")
            env["VALGRIND_OPTS"] = " ".join(opts)
        # run-tests.php writes temporary files next to each test.
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out = proc.stdout
        lines = results.read_text().splitlines() if results.exists() else []
        lines = [l.replace(str(base) + "/", "") for l in lines]
        out = out.replace(str(base) + "/", "")

    entries = []
    for line in lines:
        status, _, name = line.partition("\t")
        entries.append((status.strip(), name.strip()))
    if not entries:
        print("1..0 # run-tests.php produced no results")
        print(out)
        return 1

    # run-tests.php runs a test that measures time (hrtime, usleep, ...) a
    # second time when it fails, and reports a pass on that second attempt as
    # WARN. That is its policy for timing under load, and ours: such a test
    # passes, marked as retried so that flakiness stays visible in the log.
    retried = set()
    for l in out.splitlines():
        if l.startswith("WARN ") and "(warn: Test passed on retry attempt)" in l:
            m = re.search(r"\[([^\]]+)\]\s+\(warn: Test passed on retry attempt\)", l)
            if m:
                retried.add(m.group(1))

    print(f"1..{len(entries)}")
    bad = 0
    for i, (status, name) in enumerate(entries, 1):
        label = name
        if status in ("PASS", "PASSED", "XFAIL", "XFAILED"):
            print(f"ok {i} - {label}")
        elif status in ("WARN", "WARNED") and name in retried:
            print(f"ok {i} - {label} # passed on run-tests.php's retry")
        elif status in ("SKIP", "SKIPPED"):
            print(f"ok {i} - {label} # SKIP")
        else:
            bad += 1
            print(f"not ok {i} - {label} ({status})")
    if bad or proc.returncode not in (0, 1):
        # The diffs and valgrind reports, as comments.
        for l in out.splitlines():
            print("# " + l)
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
