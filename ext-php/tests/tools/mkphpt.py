#!/usr/bin/env python3
"""Writes phpt files from a compact source: blocks separated by lines
'=== area/NNN-title.phpt', each with sections '--TEST--', '--DESCRIPTION--'
(optional), '--INI--' (optional), '--FILE--', '--EXPECT--' or '--EXPECTF--'.
A maintenance tool for writing many small tests; the phpt files are the
tests (commit them, edit them directly if you like)."""
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
src = Path(sys.argv[1]).read_text()
count = 0
for block in src.split("\n=== ")[1:]:
    name, _, body = block.partition("\n")
    path = root / name.strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = body.strip("\n") + "\n"
    if "--FILE--" not in text:
        sys.exit(f"{name}: no --FILE--")
    path.write_text(text)
    count += 1
print(f"wrote {count} tests")
