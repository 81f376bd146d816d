// The subcommands of `rubble` and their help texts. Each cmd_* takes the arguments after the
// command name (argv[0] is the command) and returns the process exit status (cli_common.h).
#ifndef RUBBLE_CLI_COMMANDS_H
#define RUBBLE_CLI_COMMANDS_H

#include <stdio.h>

#include "cli_common.h"

int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/// `rubble COMMAND --help`: the command's usage, its options with their defaults, examples.
void cmd_info_usage(FILE *f);
void cmd_run_usage(FILE *f);
void cmd_bench_usage(FILE *f);
void cmd_check_usage(FILE *f);
void cmd_validate_usage(FILE *f);

/// The column of option texts in the commands' help.
enum { CMD_HELP_WIDTH = CLI_HELP_WIDTH };

/// Creates a world from rb_default_world_def() and the common options (backend, solver, threads).
/// On failure prints "WHO: <library message>" and returns CLI_EXIT_FAIL.
int cli_create_world(const char *who, const cli_common *c, rb_world_id *out);

/// After a run: prints "WHO: warning: ..." to stderr when rb_counters.imprecise_bodies > 0,
/// i.e. when bodies move where float positions cannot follow their motion (docs/large-worlds.md).
void cli_warn_imprecise(const char *who, rb_world_id world);

#endif
