#!/usr/bin/env python3
"""Keeps the imports of ext-php running one way (issue 22).

ext-php is a house with wings: api/ (the PHP classes and functions),
io/ (rule C18's hooks), runtime/ (the runtime in a request, the host's
callbacks, guards and watchdogs), and the module (async.c, php_async.h) on
top. A file and its header (io/wait.c and io/wait.h) are one node; a quoted
include of a header of ext-php is an arrow to its node. This script fails
when:

  - a file other than async.c includes the module header php_async.h;
  - an arrow runs up the layers below (a floor file includes a wing, a wing
    includes the module);
  - a header declares a function its own .c does not define, or a .c
    defines a non-static function no header of its own declares (so that
    the include graph is the real import graph);
  - a loop of the graph ties more than MAX_LOOP files together.

It prints the layers, the arrows that run across them, and every loop.
Usage: check_includes.py EXT_PHP_DIR
"""
import os
import re
import sys

# "No loop tying more than a handful of files": the largest today is the API
# classes that name each other (a Coroutine's scope and context, a scope's
# coroutines, and the spawn of both).
MAX_LOOP = 4

# Bottom to top. A node may include nodes of its own layer and below.
LAYERS = [
    ('base', ['runtime/globals', 'api/exceptions', 'runtime/stall', 'io/hooks', 'io/read_target']),
    ('runtime floor', ['runtime/host', 'runtime/runtime', 'runtime/fibers']),
    ('I/O floor', ['io/wait', 'io/busy', 'io/poll']),
    ('wings', ['api/*', 'io/*', 'runtime/*']),
    ('module', ['async', 'php_async']),
]
MODULE_HEADER = 'php_async.h'
# Declares the lifecycle of every hook family: only the module calls them,
# each family defines its own.
SHARED_DECLARATIONS = {'io/families'}
PHP_MACROS = re.compile(r'^(ZEND_|PHP_)')


def rank_of(node):
    for i, (_, patterns) in enumerate(LAYERS):
        for p in patterns:
            if p == node or (p.endswith('/*') and node.startswith(p[:-1])):
                return i
    return None


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def sources(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        top = rel.split(os.sep)[0]
        if top in ('tests', 'tools', 'stubs'):
            continue
        for f in filenames:
            if f.endswith(('.c', '.h')):
                out.append(os.path.normpath(os.path.join(rel, f)).replace(os.sep, '/'))
    return sorted(out)


def includes(root, path, known):
    found = []
    for n, line in enumerate(open(os.path.join(root, path)), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        inc = m.group(1)
        for cand in (os.path.normpath(os.path.join(os.path.dirname(path), inc)), os.path.normpath(inc)):
            cand = cand.replace(os.sep, '/')
            if cand in known:
                found.append((n, cand))
                break
    return found


def functions_declared(text):
    text = strip_comments(text)
    text = re.sub(r'static\s+(?:zend_always_)?inline\b.*?\n\}', '', text, flags=re.S)
    return set(re.findall(r'^[A-Za-z_][\w \*]*?\b([a-z_]\w*)\s*\([^;{]*\)\s*;', text, re.M))


def functions_defined(text):
    text = strip_comments(text)
    return set(n for n in re.findall(r'^(?!static\b)[A-Za-z_][\w \*]*?\b([a-z_]\w*)\s*\([^;{]*\)\s*\{', text, re.M)
               if not PHP_MACROS.match(n))


def sccs(nodes, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = sys.argv[1]
    files = sources(root)
    known = set(files)
    node_of = {f: f[:-2] for f in files}
    nodes = set(node_of.values())
    errors = []
    edges = {}
    arrows = []
    for f in files:
        for line, inc in includes(root, f, known):
            if os.path.basename(inc) == MODULE_HEADER and f != 'async.c':
                errors.append('%s:%d includes the module header %s' % (f, line, MODULE_HEADER))
            a, b = node_of[f], node_of[inc]
            if a == b:
                continue
            edges.setdefault(a, set()).add(b)
            arrows.append((f, line, a, b))
    for n in sorted(nodes):
        if rank_of(n) is None:
            errors.append('%s is in no layer of tools/check_includes.py' % n)
    for f, line, a, b in arrows:
        ra, rb = rank_of(a), rank_of(b)
        if ra is not None and rb is not None and rb > ra:
            errors.append('%s:%d runs up: %s (%s) includes %s (%s)' % (f, line, a, LAYERS[ra][0], b, LAYERS[rb][0]))
    # Headers say what their own file defines.
    for n in sorted(nodes):
        h, c = n + '.h', n + '.c'
        if h not in known or n in SHARED_DECLARATIONS:
            continue
        declared = functions_declared(open(os.path.join(root, h)).read())
        defined = functions_defined(open(os.path.join(root, c)).read()) if c in known else set()
        for fn in sorted(declared - defined):
            errors.append('%s declares %s(), which %s does not define' % (h, fn, c if c in known else 'no file'))
    shared = set()
    for s in SHARED_DECLARATIONS:
        if s + '.h' in known:
            shared |= functions_declared(open(os.path.join(root, s + '.h')).read())
    for f in files:
        if not f.endswith('.c') or f == 'async.c':
            continue
        own = f[:-2] + '.h'
        declared = functions_declared(open(os.path.join(root, own)).read()) if own in known else set()
        for fn in sorted(functions_defined(open(os.path.join(root, f)).read()) - declared - shared):
            errors.append('%s defines %s(), which %s' % (f, fn, ('%s does not declare' % own) if own in known else 'no header of its own declares'))

    print('# ext-php include graph: %d files, %d nodes, %d arrows' % (len(files), len(nodes), sum(len(v) for v in edges.values())))
    for i, (name, _) in enumerate(LAYERS):
        members = sorted(n for n in nodes if rank_of(n) == i)
        print('# layer %d, %s: %s' % (i, name, ' '.join(members)))
    loops = [c for c in sccs(nodes, edges) if len(c) > 1]
    if not loops:
        print('# loops: none')
    for c in loops:
        print('# loop of %d: %s' % (len(c), ' <-> '.join(c)))
        if len(c) > MAX_LOOP:
            errors.append('a loop ties %d files together (at most %d): %s' % (len(c), MAX_LOOP, ' '.join(c)))
    for e in errors:
        print('error: ' + e)
    print('include direction: %s' % ('FAILED, %d errors' % len(errors) if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
