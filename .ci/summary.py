#!/usr/bin/env python3
"""Prints 'N passed, M failed' over every test case in the given meson build
directories: GoogleTest cases count one by one (from meson's JUnit log),
other tests (phpt runs, scripts) count as reported there."""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

passed = failed = 0
for build in sys.argv[1:]:
    log = Path(build) / "meson-logs" / "testlog.junit.xml"
    if not log.exists():
        print(f"summary: no test log in {build}", file=sys.stderr)
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
