#!/usr/bin/env python3
"""Prints 'N passed, M failed' over every test case of the given meson
build directories (their testlog.junit.xml) or JUnit files: GoogleTest cases
and phpt files count one by one, other tests as one case each."""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

passed = failed = 0
for arg in sys.argv[1:]:
    log = Path(arg)
    if log.is_dir():
        log = log / "meson-logs" / "testlog.junit.xml"
    if not log.exists():
        print(f"summary: no test log {log}", file=sys.stderr)
        failed += 1
        continue
    for case in ET.parse(log).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            continue
        else:
            passed += 1
print(f"{passed} passed, {failed} failed")
