#!/usr/bin/env python3
"""Fails when a public function of api/rubble.h has no doc comment.

Every declaration that starts with `RB_API` must be directly preceded (no blank line between) by a
Doxygen block, either `///` lines or a `/** ... */` comment, that names each of the function's
parameters, in an `@param name` line or as `name` in backquotes.

    python3 docs/check_api_docs.py [api/rubble.h]

Exit status 0 when every function is documented, 1 otherwise (the missing ones are listed, with
their line numbers), 2 when the header cannot be read.

Two more modes run Doxygen on the configured docs/Doxyfile (build/docs/Doxyfile):

    python3 docs/check_api_docs.py --doxygen-test DOXYFILE [DOXYGEN]
        runs doxygen into a temporary directory with warnings as errors (WARN_AS_ERROR =
        FAIL_ON_WARNINGS) and fails, listing them, on any warning; exit status 77 (skipped) when
        doxygen is not installed. The meson test api-doxygen.
    python3 docs/check_api_docs.py --doxygen-build DOXYFILE OUTPUT_DIR [DOXYGEN]
        writes the reference (OUTPUT_DIR/html) and touches OUTPUT_DIR, so that ninja sees it up to
        date. The target behind `ninja -C build docs`.

DOXYGEN is the program meson found; without it, `doxygen` on PATH. Standard library only.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def doc_block_before(lines, i):
    """Text of the doc comment that ends on the line just above lines[i], or None."""
    j = i - 1
    if j < 0:
        return None
    last = lines[j].strip()
    if last.startswith('///'):
        block = []
        while j >= 0 and lines[j].strip().startswith('///'):
            block.append(lines[j].strip()[3:])
            j -= 1
        return '\n'.join(reversed(block))
    if last.endswith('*/'):
        block = []
        while j >= 0:
            block.append(lines[j])
            if '/**' in lines[j] or '/*!' in lines[j]:
                return '\n'.join(reversed(block))
            if '/*' in lines[j]:
                return None  # a plain /* */ comment is not a doc comment
            j -= 1
    return None


def mentions(doc, param):
    """Whether a doc comment names a parameter: `@param name` (or `\\param`, with [in]/[out]), or
    the name in backquotes (`name`). A bare word would not do: a parameter named `a` is in any text."""
    name = re.escape(param)
    return bool(re.search(r'[@\\]param(\[[a-z, ]*\])?\s+' + name + r'\b', doc) or re.search('`' + name + '`', doc))


def declarations(lines):
    """(line index, name, [parameter names], declaration text) for each RB_API declaration."""
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith('RB_API'):
            i += 1
            continue
        start = i
        text = lines[i]
        while ';' not in text and i + 1 < len(lines):
            i += 1
            text += ' ' + lines[i].strip()
        decl = ' '.join(text.split(';')[0].split())
        m = re.match(r'RB_API\s+.*?\b(\w+)\s*\((.*)\)\s*$', decl)
        if not m:
            yield start, None, [], decl
        else:
            params = []
            for p in m.group(2).split(','):
                p = p.strip()
                if p in ('', 'void'):
                    continue
                pm = re.search(r'(\w+)\s*(\[[^\]]*\])?$', p)
                if pm:
                    params.append(pm.group(1))
            yield start, m.group(1), params, decl
        i += 1


def find_doxygen(argv_rest):
    for candidate in argv_rest + ['doxygen']:
        path = shutil.which(candidate) if candidate else None
        if path:
            return path
    return None


def run_doxygen(doxygen, doxyfile, overrides):
    """Runs doxygen on `doxyfile` with `overrides` (lines of the config language); returns
    (exit status, output lines that are warnings or errors, whole output)."""
    config = f'@INCLUDE = {os.path.abspath(doxyfile)}\n' + ''.join(line + '\n' for line in overrides)
    proc = subprocess.run([doxygen, '-'], input=config, capture_output=True, text=True)
    output = proc.stdout + proc.stderr
    problems = [line for line in output.splitlines()
                if re.search(r'\b(warning|error):', line) or line.startswith('  parameter')]
    return proc.returncode, problems, output


def doxygen_test(argv):
    if len(argv) < 1:
        print('usage: check_api_docs.py --doxygen-test DOXYFILE [DOXYGEN]', file=sys.stderr)
        return 2
    doxygen = find_doxygen(argv[1:])
    if not doxygen:
        print('check_api_docs: doxygen is not installed; the reference check is skipped')
        return 77
    with tempfile.TemporaryDirectory(prefix='rubble-api-docs-') as out:
        rc, problems, output = run_doxygen(doxygen, argv[0], [f'OUTPUT_DIRECTORY = {out}',
                                                              'WARN_AS_ERROR = FAIL_ON_WARNINGS'])
        index = os.path.join(out, 'html', 'index.html')
        if rc != 0 or problems or not os.path.exists(index):
            print(output.rstrip())
            print(f'check_api_docs: doxygen ({doxygen}) exited with {rc} and {len(problems)} warning line(s); '
                  'every public declaration of api/rubble.h needs a doc comment with every parameter')
            return 1
    print(f'check_api_docs: doxygen ({doxygen}) built the reference without a warning')
    return 0


def doxygen_build(argv):
    if len(argv) < 2:
        print('usage: check_api_docs.py --doxygen-build DOXYFILE OUTPUT_DIR [DOXYGEN]', file=sys.stderr)
        return 2
    doxygen = find_doxygen(argv[2:])
    if not doxygen:
        print('check_api_docs: doxygen is not installed (Debian: apt-get install doxygen)', file=sys.stderr)
        return 1
    rc, problems, output = run_doxygen(doxygen, argv[0], [f'OUTPUT_DIRECTORY = {argv[1]}'])
    if output.strip():
        print(output.rstrip())
    if rc != 0:
        return rc
    os.makedirs(argv[1], exist_ok=True)
    os.utime(argv[1])  # the target's output is the directory: newer than its inputs now
    print(f'check_api_docs: API reference in {os.path.join(argv[1], "html", "index.html")}')
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == '--doxygen-test':
        return doxygen_test(argv[2:])
    if len(argv) > 1 and argv[1] == '--doxygen-build':
        return doxygen_build(argv[2:])
    here = os.path.dirname(os.path.abspath(__file__))
    path = argv[1] if len(argv) > 1 else os.path.join(here, '..', 'api', 'rubble.h')
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
    except OSError as e:
        print(f'check_api_docs: cannot read {path}: {e}', file=sys.stderr)
        return 2

    total = 0
    problems = []
    for idx, name, params, decl in declarations(lines):
        total += 1
        if name is None:
            problems.append(f'{path}:{idx + 1}: cannot parse the declaration: {decl}')
            continue
        doc = doc_block_before(lines, idx)
        if doc is None:
            problems.append(f'{path}:{idx + 1}: {name}: no doc comment (/// or /** */) directly above it')
            continue
        missing = [p for p in params if not mentions(doc, p)]
        if missing:
            problems.append(f'{path}:{idx + 1}: {name}: the doc comment does not mention parameter(s) '
                            + ', '.join(missing))

    if total == 0:
        print(f'check_api_docs: no RB_API declarations found in {path}', file=sys.stderr)
        return 1
    if problems:
        print('\n'.join(problems))
        print(f'check_api_docs: {len(problems)} of {total} RB_API functions are not fully documented')
        return 1
    print(f'check_api_docs: all {total} RB_API functions of {path} are documented')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
