// Argument parsing shared by the commands: the common options (--backend, --solver, --threads,
// --steps) and checked conversions of option values. A bad argument prints one line naming it and
// makes the command exit with CLI_EXIT_USAGE.
#ifndef RUBBLE_CLI_OPTIONS_H
#define RUBBLE_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rubble.h"

enum {
    CLI_EXIT_OK = 0,    ///< success
    CLI_EXIT_FAIL = 1,  ///< the library reported an error (message from rb_last_error)
    CLI_EXIT_USAGE = 2, ///< bad command line
};

/// Options every simulation command takes.
typedef struct cli_common {
    rb_backend backend; ///< --backend, default RB_BACKEND_AUTO (the library then reads RUBBLE_BACKEND)
    rb_solver solver;   ///< --solver, default RB_SOLVER_DEFAULT
    int threads;        ///< --threads, 0 = the library's default (RUBBLE_THREADS, OMP_NUM_THREADS, cores)
    int steps;          ///< --steps, default 600
} cli_common;

cli_common cli_default_common(void);

/// Walks argv one option at a time. Accepts "--name value" and "--name=value".
typedef struct cli_args {
    const char *command; ///< for messages: "run", "bench", ...
    int argc;
    char **argv;
    int next;            ///< index of the next argument to read
    const char *name;    ///< option being handled, without any "=value"
    const char *inline_value; ///< value given as --name=value, else NULL
    char name_buf[64];
} cli_args;

void cli_args_init(cli_args *a, const char *command, int argc, char **argv, int first);
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

/// If the current argument is one of the common options, consumes it (and its value) and returns 1;
/// returns 0 if it is not a common option; -1 (message printed) if its value is bad.
int cli_take_common(cli_args *a, cli_common *c);

/// Checked conversions. On error they print "rubble CMD: OPTION: expected ..., got 'TEXT'" and
/// return false.
bool cli_parse_int(const char *command, const char *option, const char *text, long min, long max, long *out);
bool cli_parse_u64(const char *command, const char *option, const char *text, uint64_t *out);
bool cli_parse_positive_float(const char *command, const char *option, const char *text, float *out);

/// Prints "rubble CMD: message" on stderr (one line) and returns CLI_EXIT_USAGE.
int cli_usage_error(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/// Prints "rubble CMD: message" on stderr (one line) and returns CLI_EXIT_FAIL.
int cli_library_error(const char *command, const char *what, rb_world_id world);

#endif
