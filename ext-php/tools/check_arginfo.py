#!/usr/bin/env python3
"""Checks that every committed stubs/*_arginfo.h was generated from its stub.

gen_stub.php writes "Stub hash: <sha1 of the stub, CRLF as LF>" into the
header it generates; a stub edited without regenerating (ninja -C build
php-stubs) leaves an arginfo that no longer describes the functions PHP
sees. Prints one line per stub and exits 1 on any mismatch or missing file.
"""
import hashlib
import re
import sys
from pathlib import Path


def main() -> int:
    stubs = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "stubs")
    bad = 0
    found = sorted(stubs.glob("*.stub.php"))
    if not found:
        print(f"no stubs in {stubs}")
        return 1
    for stub in found:
        arginfo = stub.with_name(stub.name[: -len(".stub.php")] + "_arginfo.h")
        want = hashlib.sha1(stub.read_bytes().replace(b"\r\n", b"\n")).hexdigest()
        if not arginfo.exists():
            print(f"FAIL {stub.name}: {arginfo.name} is missing")
            bad += 1
            continue
        m = re.search(r"Stub hash: ([0-9a-f]{40})", arginfo.read_text())
        got = m.group(1) if m else None
        if got != want:
            print(f"FAIL {stub.name}: {arginfo.name} says {got}, the stub hashes to {want} (regenerate: ninja -C build php-stubs)")
            bad += 1
        else:
            print(f"ok {stub.name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
