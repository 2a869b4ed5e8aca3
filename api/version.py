#!/usr/bin/env python3
"""Prints a version number read from api/include/tasync/version.h, the one
place that owns them, for meson.build (which cannot include a C header).

    api/version.py          the release, e.g. 0.1.0
    api/version.py --abi    the ABI, e.g. 1.2
"""
import re
import sys
from pathlib import Path

HEADER = Path(__file__).resolve().parent.parent / "api" / "include" / "tasync" / "version.h"


def number(text, name):
    m = re.search(r"^#define " + name + r"\s+(\d+)\s*$", text, re.M)
    if not m:
        sys.exit(f"{HEADER}: no '#define {name} <number>'")
    return m.group(1)


def main():
    text = HEADER.read_text()
    if "--abi" in sys.argv[1:]:
        names = ["TASYNC_ABI_VERSION_MAJOR", "TASYNC_ABI_VERSION_MINOR"]
    else:
        names = ["TASYNC_VERSION_MAJOR", "TASYNC_VERSION_MINOR", "TASYNC_VERSION_PATCH"]
    print(".".join(number(text, n) for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
