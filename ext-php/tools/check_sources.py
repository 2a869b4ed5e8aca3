#!/usr/bin/env python3
"""config.m4 (the phpize build) and meson.build list the same sources.

Both builds of async.so name their C files one by one; this fails when one
names a file the other does not, when either names a file that does not
exist, when a C file of the extension is in neither, or when config.m4
does not create the build folder of a source folder (PHP_ADD_BUILD_DIR).
Usage: check_sources.py EXT_PHP_DIR
"""
import os
import re
import sys


def meson_sources(text):
    out = set()
    for m in re.finditer(r"ext_sources\s*\+?=\s*files\((.*?)\)", text, re.S):
        out |= set(re.findall(r"'([^']+\.c)'", m.group(1)))
    return out


def m4_sources(text):
    out = set()
    m = re.search(r"PHP_NEW_EXTENSION\(\[async\],\s*\[([^\]]*)\]", text)
    if m:
        out |= set(w for w in m.group(1).split() if w.endswith('.c'))
    for m in re.finditer(r'ASYNC_CURL_SOURCES="([^"]*)"', text):
        out |= set(w for w in m.group(1).split() if w.endswith('.c'))
    return out


def m4_build_dirs(text):
    out = set()
    for m in re.finditer(r"PHP_ADD_BUILD_DIR\(\[([^\]]*)\]", text):
        out |= set(w.replace('$ext_builddir/', '') for w in m.group(1).split())
    return out


def tree_sources(root):
    """The extension's C files, as check_includes.py finds its sources."""
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from check_includes import sources
    return set(f for f in sources(root) if f.endswith('.c'))


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = sys.argv[1]
    meson = meson_sources(open(os.path.join(root, 'meson.build')).read())
    m4_text = open(os.path.join(root, 'config.m4')).read()
    m4 = m4_sources(m4_text)
    tree = tree_sources(root)
    errors = []
    for f in sorted(meson - m4):
        errors.append('meson.build builds %s, config.m4 does not' % f)
    for f in sorted(m4 - meson):
        errors.append('config.m4 builds %s, meson.build does not' % f)
    for f in sorted((meson | m4) - tree):
        errors.append('%s is listed but does not exist' % f)
    for f in sorted(tree - meson - m4):
        errors.append('%s is built by neither meson.build nor config.m4' % f)
    dirs = set(os.path.dirname(f) for f in m4 if '/' in f)
    for d in sorted(dirs - m4_build_dirs(m4_text)):
        errors.append('config.m4 builds sources of %s/ without PHP_ADD_BUILD_DIR for it' % d)
    print('# %d sources in meson.build, %d in config.m4, %d C files in the tree' % (len(meson), len(m4), len(tree)))
    for e in errors:
        print('error: ' + e)
    print('sources: %s' % ('FAILED' if errors else 'the same'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
