// The command line shared by `rubble` (tools/) and `rubble-view` (viewer/), built once as the static
// library rubble_cli: the exit statuses, the argument walker, the common options (parsed by one
// function, described by one help text whose solver and backend lists come from the library),
// checked conversions of option values, scene loading and output files opened before a run.
//
// Messages start with `who`, the program and command as the user typed them ("rubble run",
// "rubble-view"), and a bad argument is one line: "rubble run: --steps: expected ... (see
// 'rubble run --help')".
#ifndef RUBBLE_CLI_COMMON_H
#define RUBBLE_CLI_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rubble.h"

/// Exit statuses of `rubble` and `rubble-view` (docs/cli.md, "Exit status").
enum {
    CLI_EXIT_OK = 0,    ///< success
    CLI_EXIT_FAIL = 1,  ///< the scene, the library or the system failed: a scene that cannot be read or built,
                        ///< a backend that cannot start, a failed step, an output that cannot be written,
                        ///< no display (rubble-view), tolerances broken (rubble check)
    CLI_EXIT_USAGE = 2, ///< bad command line: nothing was run
};

/// The common options, one bit each: a program says which it takes.
enum {
    CLI_OPT_BACKEND = 1 << 0,  ///< --backend B
    CLI_OPT_SOLVER = 1 << 1,   ///< --solver S
    CLI_OPT_THREADS = 1 << 2,  ///< --threads N
    CLI_OPT_STEPS = 1 << 3,    ///< --steps N
    CLI_OPT_SEED = 1 << 4,     ///< --seed S
    CLI_OPT_NO_SLEEP = 1 << 5, ///< --no-sleep
    CLI_OPT_DT = 1 << 6,       ///< --dt X
    CLI_OPT_SUBSTEPS = 1 << 7, ///< --substeps N
};

/// Values of the common options. The defaults given to cli_take_common are also those the help shows.
typedef struct cli_common {
    unsigned accepted;  ///< CLI_OPT_* bits of the options the program takes
    rb_backend backend; ///< --backend, default RB_BACKEND_AUTO (the library then reads RUBBLE_BACKEND)
    rb_solver solver;   ///< --solver, default RB_SOLVER_DEFAULT
    int threads;        ///< --threads, 0 = the library's default (RUBBLE_THREADS, OMP_NUM_THREADS, cores)
    int steps;          ///< --steps, default 600
    uint64_t seed;      ///< --seed of a built-in scene, default 1
    bool no_sleep;      ///< --no-sleep
    float dt;           ///< --dt, s; 0 = the scene's
    int substeps;       ///< --substeps; 0 = the scene's, else the solver's
} cli_common;

cli_common cli_default_common(unsigned accepted);

/// Walks argv one option at a time. Accepts "--name value" and "--name=value".
typedef struct cli_args {
    const char *who;     ///< for messages: "rubble run", "rubble-view"
    int argc;
    char **argv;
    int next;            ///< index of the next argument to read
    const char *name;    ///< option being handled, without any "=value"
    const char *inline_value; ///< value given as --name=value, else NULL
    char name_buf[64];
} cli_args;

void cli_args_init(cli_args *a, const char *who, int argc, char **argv, int first);
/// Next argument: returns false at the end. Sets a->name (an option or a positional argument).
bool cli_args_next(cli_args *a);
/// True if the current argument is the option `name` ("--steps").
bool cli_args_is(const cli_args *a, const char *name);
/// True if the current argument starts with '-' (and is not "-" alone).
bool cli_args_is_option(const cli_args *a);
/// Value of the current option; prints an error and returns NULL if it is missing.
const char *cli_args_value(cli_args *a);
/// Reports an option that takes no value but was given one (--hash=1); returns false.
bool cli_args_no_value(const cli_args *a);

/// If the current argument is one of the common options `c->accepted` names, consumes it (and its
/// value) and returns 1; returns 0 if it is not; -1 (message printed) if its value is bad.
int cli_take_common(cli_args *a, cli_common *c);

/// Help lines of the accepted common options, with the defaults of `defaults`; option names are
/// padded to `width` columns after two spaces of indent. The solver and backend names are those the
/// library knows (rb_solver_name, rb_backend_name).
void cli_print_common_help(FILE *f, const cli_common *defaults, int width);
/// The width of option names in the help of `rubble` and `rubble-view`, so that the common options
/// read (and wrap) alike in both.
enum { CLI_HELP_WIDTH = 20 };
/// One help line "  NAME  TEXT", TEXT wrapped under itself at 100 columns.
void cli_print_option(FILE *f, int width, const char *name, const char *text);
/// "a, b, c or d": the backend names the library knows, auto first; or its solver names, default last.
void cli_backend_names(char *buf, size_t size);
void cli_solver_names(char *buf, size_t size);

/// The built-in scenes, for help texts and messages.
#define CLI_BUILTIN_SCENES "pyramid, stack, pile, pile:S (S x S x 20 spheres), boxes, rocks, chain, ragdolls"

/// True when SCENE is a file to load rather than a built-in scene name: a path that exists, or a
/// name with a '/' or a '.' in it (then a missing file is reported as such).
bool cli_scene_is_file(const char *scene);
/// Loads the scene file or builds the built-in scene into `world`. On failure prints one line,
/// "WHO: cannot open the scene file 'PATH': reason", "WHO: cannot load the scene: <library message>"
/// or "WHO: cannot build the scene: <library message>", and returns CLI_EXIT_FAIL; the world is then
/// unchanged. rubble-view's viewer/simulation.c words its failures the same way.
int cli_load_scene(const char *who, rb_world_id world, const char *scene, uint64_t seed);

/// Opens an output file for writing before any work is done. On failure prints
/// "WHO: OPTION: cannot open 'PATH' for writing: reason" and returns NULL.
FILE *cli_open_output(const char *who, const char *option, const char *path);
/// Checks that PATH can be written, for an output written later by another library (a PNG): opens it
/// for appending and closes it, removing it again if it did not exist. Message as cli_open_output.
bool cli_check_output(const char *who, const char *option, const char *path);

/// Checked conversions. On error they print "WHO: OPTION: expected ..., got 'TEXT'" and return false.
bool cli_parse_int(const char *who, const char *option, const char *text, long min, long max, long *out);
bool cli_parse_u64(const char *who, const char *option, const char *text, uint64_t *out);
bool cli_parse_positive_float(const char *who, const char *option, const char *text, float *out);

/// Prints "WHO: message (see 'WHO --help')" on stderr (one line) and returns CLI_EXIT_USAGE.
/// WHO NULL: "rubble: message (see 'rubble help')".
int cli_usage_error(const char *who, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Prints "WHO: WHAT: <rb_last_error(world)>" on stderr (one line) and returns CLI_EXIT_FAIL.
int cli_library_error(const char *who, const char *what, rb_world_id world);

#endif
