#!/usr/bin/env python3
"""Checks that every public function of the C ABI says since when it exists.

Each TASYNC_API declaration in api/include/tasync/*.h must have a comment of
its own right above it (nothing but whitespace between the comment's end and
the declaration) that contains "Since: ABI <major>.<minor>", with a version
no newer than the one version.h declares. A declaration that shares another
one's comment is reported: grouped declarations read well, but a function
appended to a group later silently inherits the wrong version.

    api/tests/since_check.py [HEADER_DIR]    exit 1 and list what is missing
"""
import re
import sys
from pathlib import Path

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "include" / "tasync"
DECL = re.compile(r"^TASYNC_API\b[^;{]*?\b(\w+)\s*\(", re.M)
COMMENT_BEFORE = re.compile(r"/\*((?:(?!\*/).)*)\*/\s*$", re.S)
SINCE = re.compile(r"Since: ABI (\d+)\.(\d+)")


def abi_of(header_dir):
    text = (header_dir / "version.h").read_text()
    major = int(re.search(r"#define TASYNC_ABI_VERSION_MAJOR (\d+)", text).group(1))
    minor = int(re.search(r"#define TASYNC_ABI_VERSION_MINOR (\d+)", text).group(1))
    return major, minor


def problems(header_dir):
    current = abi_of(header_dir)
    found, count = [], 0
    for header in sorted(header_dir.glob("*.h")):
        text = header.read_text()
        for m in DECL.finditer(text):
            count += 1
            name = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            where = f"{header.name}:{line}: {name}"
            comment = COMMENT_BEFORE.search(text, 0, m.start())
            if comment is None:
                found.append(f"{where}: no comment of its own right above it")
                continue
            since = SINCE.findall(comment.group(1))
            if not since:
                found.append(f'{where}: its comment has no "Since: ABI x.y"')
                continue
            version = (int(since[0][0]), int(since[0][1]))
            if version > current:
                found.append(f"{where}: Since: ABI {version[0]}.{version[1]} is newer than version.h's "
                             f"{current[0]}.{current[1]}")
    return found, count


def main():
    header_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DIR
    found, count = problems(header_dir)
    if count == 0:
        print(f"no TASYNC_API declaration found in {header_dir}", file=sys.stderr)
        return 1
    for p in found:
        print(p, file=sys.stderr)
    if found:
        print(f"{len(found)} of {count} public functions lack their Since: tag", file=sys.stderr)
        return 1
    print(f"{count} public functions, each with its Since: tag")
    return 0


if __name__ == "__main__":
    sys.exit(main())
