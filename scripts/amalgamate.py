#!/usr/bin/env python3
"""The one-file build of rubble (docs/embedding.md): rubble.c + rubble.h, the CPU backend only.

    python3 scripts/amalgamate.py --version 0.1.0 --out-dir DIR core/*.c backend-cpu/*.c api/rubble.h

Meson runs it (amalgamation/meson.build) with the library's own source lists, so the one-file build
holds the same files as librubble. rubble.h is api/rubble.h; rubble.c inlines every .c given, and each
project header the first time it is included, in the order given. What differs from librubble:
- rb_config.h is written here: no GPU modules, RB_HAVE_OPENMP follows the compiler's -fopenmp;
- the eight-lane (AVX2) solver path is left out: it is the same source built with -mavx2, which one
  translation unit cannot hold next to the four-lane build (RB_WIDE_HAS_8 is set to 0, so the run-time
  pick takes four lanes; both give the same bits);
- backend modules are not loaded (they link against librubble): the dlopen family is replaced by
  stand-ins that fail, so no -ldl is needed;
- the scene-file loader needs libyaml, so scene_file*.c come last, inside #ifdef RUBBLE_WITH_YAML;
  without it rb_load_scene and rb_load_scene_text return RB_ERR_UNSUPPORTED.
Names that two .c files both keep static, and macros a .c file defines, are made local to their file
(renamed with #define, and #undef after the file), since one translation unit holds them all.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
FEATURE_MACRO = re.compile(r'^\s*#\s*define\s+(_GNU_SOURCE|_POSIX_C_SOURCE|_DEFAULT_SOURCE)\b')
DEFINE = re.compile(r'^\s*#\s*define\s+(\w+)')
# a file-scope static function or variable (`[MACRO] static [inline] type... name(`, `name =`, `[`, `;`)
STATIC = re.compile(r'^(?:\w+\s+)*static\s+(?:[\w\s\*]+?)\b(\w+)\s*(?:\(|\[|=|;)')
ENUM = re.compile(r'\benum\s*\w*\s*\{([^}]*)\}')
COMMENT = re.compile(r'//[^\n]*|/\*.*?\*/', re.S)

# Files that need libyaml; they come last, inside #ifdef RUBBLE_WITH_YAML.
YAML_FILES = ('core/scene_file.c', 'core/scene_file_yaml.c')

CONFIG = '''\
// rb_config.h of the one-file build: the CPU backend only, no GPU modules.
#define RB_VERSION "{version}"
#ifdef _OPENMP
#define RB_HAVE_OPENMP 1
#else
#define RB_HAVE_OPENMP 0
#endif
#define RB_BUILT_OPENCL 0
#define RB_BUILT_CUDA 0
#define RB_MODULE_DIR "(none: the one-file build loads no modules)"
#define RB_BUILD_MODULE_DIR RB_MODULE_DIR
'''

# After `#include <dlfcn.h>`: the GPU modules link against librubble, so the one-file build has none to
# load; these stand-ins fail the way a missing module does, and need no -ldl.
DL_STANDINS = '''\
#define dlopen(path, flags) ((void)(path), (void)(flags), (void *)0)
#define dlsym(handle, name) ((void)(handle), (void)(name), (void *)0)
#define dlclose(handle) ((void)(handle))
#define dlerror() "the one-file build of rubble loads no backend modules"
#define dladdr(addr, info) ((void)(addr), (void)(info), 0)
'''

NO_YAML = '''\
// Scene files are read with libyaml: compile with -DRUBBLE_WITH_YAML and link -lyaml to have them.
static rb_status rb_no_scene_files(rb_world_id wid, const char *fn)
{
    rb_status s;
    rb_world *w = rb_get_world(wid, &s);
    if (!w)
        return s;
    return rb_fail(w, RB_ERR_UNSUPPORTED,
                   "%s: this one-file build of rubble reads no scene files (compile rubble.c with "
                   "-DRUBBLE_WITH_YAML and link -lyaml)", fn);
}
rb_status rb_load_scene(rb_world_id wid, const char *path)
{
    (void)path;
    return rb_no_scene_files(wid, "rb_load_scene");
}
rb_status rb_load_scene_text(rb_world_id wid, const char *text, const char *name)
{
    (void)text;
    (void)name;
    return rb_no_scene_files(wid, "rb_load_scene_text");
}
'''


class Amalgamation:
    def __init__(self, root, include_dirs):
        self.root = root
        self.include_dirs = include_dirs
        self.seen = set()
        self.out = []
        self.wide8_off = False    # RB_WIDE_HAS_8 was set to 0
        self.dl_replaced = False  # the dlopen stand-ins were written

    def rel(self, path):
        return os.path.relpath(path, self.root)

    def resolve(self, name, from_dir):
        for d in [from_dir] + self.include_dirs:
            p = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(p):
                return p
        return None

    def emit_file(self, path, defines=None):
        """Inlines `path`; `defines` collects the macros it defines itself (not its headers')."""
        self.seen.add(path)
        self.out.append(f'// ---- {self.rel(path)} ----\n')
        with open(path, encoding='utf-8') as f:
            lines = f.read().splitlines(keepends=True)
        for n, line in enumerate(lines):
            if FEATURE_MACRO.match(line):
                continue  # set once at the top of rubble.c, before any system header
            m = INCLUDE.match(line)
            if m:
                name = m.group(1)
                if name == 'rb_config.h' or os.path.basename(name) == 'rubble.h':
                    continue  # written once at the top
                p = self.resolve(name, os.path.dirname(path))
                if p is None:
                    sys.exit(f'amalgamate: {self.rel(path)}:{n + 1}: "{name}" not found')
                if p not in self.seen:
                    self.emit_file(p)
                continue
            if line.strip() == '#define RB_WIDE_HAS_8 1':
                line = '#define RB_WIDE_HAS_8 0 // the one-file build has the four-lane path only\n'
                self.wide8_off = True
            d = DEFINE.match(line)
            if d and defines is not None:
                defines.add(d.group(1))
            self.out.append(line)
            if line.strip() == '#include <dlfcn.h>':
                self.out.append(DL_STANDINS)
                self.dl_replaced = True
        if not self.out[-1].endswith('\n'):
            self.out.append('\n')

    def emit_source(self, path, renames):
        # names this file keeps static that another file also has: local to this file by a macro
        prefix = 'rb_' + re.sub(r'\W', '_', os.path.splitext(os.path.basename(path))[0]) + '__'
        for name in sorted(renames):
            self.out.append(f'#define {name} {prefix}{name}\n')
        defines = set()
        self.emit_file(path, defines=defines)
        for name in sorted(defines | set(renames)):
            self.out.append(f'#undef {name}\n')


def statics(path):
    """The names a .c file declares for itself: static functions and variables, enumerators."""
    with open(path, encoding='utf-8') as f:
        text = COMMENT.sub('', f.read())
    names = {m.group(1) for m in map(STATIC.match, text.splitlines()) if m}
    for body in ENUM.findall(text):
        names.update(m.group(1) for m in re.finditer(r'(?:^|,)\s*([A-Za-z_]\w*)', body))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--version', required=True)
    ap.add_argument('--out-dir', required=True)
    ap.add_argument('--depfile', help='write the files read, for the build system')
    ap.add_argument('files', nargs='+', help='the .c files of core/ and backend-cpu/, and api/rubble.h')
    args = ap.parse_args()

    files = [os.path.abspath(f) for f in args.files]
    header = [f for f in files if f.endswith('.h')]
    sources = [f for f in files if f.endswith('.c')]
    if len(header) != 1 or os.path.basename(header[0]) != 'rubble.h':
        sys.exit('amalgamate: give exactly one header, api/rubble.h')
    root = os.path.dirname(os.path.dirname(header[0]))
    include_dirs = [os.path.join(root, d) for d in ('api', 'core')]
    yaml_files = [os.path.join(root, f) for f in YAML_FILES]
    plain = [f for f in sources if f not in yaml_files]
    with_yaml = [f for f in sources if f in yaml_files]

    # static names in more than one file
    count = {}
    for f in sources:
        for name in statics(f):
            count[name] = count.get(name, 0) + 1
    shared = {name for name, c in count.items() if c > 1}

    a = Amalgamation(root, include_dirs)
    a.out.append(f'''\
// rubble {args.version}, the one-file build: the library's core and CPU backend in one C file.
// Generated by scripts/amalgamate.py from core/ and backend-cpu/ (docs/embedding.md); do not edit.
// Build it with your program, rubble.h next to it:  cc -std=c11 -O2 app.c rubble.c -lm
// -fopenmp makes the CPU backend's loops parallel (without it they run on the calling thread);
// -DRUBBLE_WITH_YAML with -lyaml adds the scene-file loader (rb_load_scene).
// Not in this file: the OpenCL and CUDA backends, and the eight-lane AVX2 solver path.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE // before any system header: POSIX.1-2008 plus dladdr, syscall
#endif
#if !defined(_OPENMP) && defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunknown-pragmas" // the `#pragma omp` lines, serial without -fopenmp
#endif
#ifdef __clang__
#pragma clang diagnostic ignored "-Wunused-function" // the headers' static inline helpers, now in this file
#elif defined(__GNUC__)
// inlined across what were separate files, GCC's flow analysis loses track of outputs written
// through pointers (librubble's own build, file by file, keeps this warning)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "rubble.h"
''')
    a.out.append(CONFIG.format(version=args.version))
    a.seen.add(header[0])
    for f in plain:
        a.emit_source(f, shared & statics(f))
    a.out.append('\n#ifdef RUBBLE_WITH_YAML\n')
    for f in with_yaml:
        a.emit_source(f, shared & statics(f))
    a.out.append('#else\n' + NO_YAML + '#endif // RUBBLE_WITH_YAML\n')
    if not a.wide8_off:
        sys.exit('amalgamate: "#define RB_WIDE_HAS_8 1" not found (backend-cpu/contact_solver_wide.h changed?)')
    if not a.dl_replaced:
        sys.exit('amalgamate: "#include <dlfcn.h>" not found (core/backend_registry.c changed?)')

    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, 'rubble.c'), 'w', encoding='utf-8') as f:
        f.writelines(a.out)
    with open(header[0], encoding='utf-8') as f:
        api = f.read()
    with open(os.path.join(args.out_dir, 'rubble.h'), 'w', encoding='utf-8') as f:
        f.write(f'// rubble {args.version}: api/rubble.h, the public API, for the one-file build (rubble.c).\n' + api)
    if args.depfile:
        with open(args.depfile, 'w', encoding='utf-8') as f:
            deps = sorted(a.seen) + [os.path.abspath(__file__)]
            f.write(os.path.join(args.out_dir, 'rubble.c') + ': ' + ' '.join(p.replace(' ', '\\ ') for p in deps) + '\n')


if __name__ == '__main__':
    main()
