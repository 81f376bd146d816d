// The subcommands of `rubble` and their help texts. Each cmd_* takes the arguments after the
// command name (argv[0] is the command) and returns the process exit status (options.h).
#ifndef RUBBLE_CLI_COMMANDS_H
#define RUBBLE_CLI_COMMANDS_H

#include "options.h"

int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_check(int argc, char **argv);

extern const char cmd_info_usage[];
extern const char cmd_run_usage[];
extern const char cmd_bench_usage[];
extern const char cmd_check_usage[];

/// Creates a world from rb_default_world_def() and the common options (backend, solver, threads).
/// On failure prints "rubble COMMAND: <library message>" and returns CLI_EXIT_FAIL.
int cli_create_world(const char *command, const cli_common *c, rb_world_id *out);

/// After a run: prints "rubble COMMAND: warning: ..." to stderr when rb_counters.imprecise_bodies > 0,
/// i.e. when bodies move where float positions cannot follow their motion (docs/large-worlds.md).
void cli_warn_imprecise(const char *command, rb_world_id world);

#endif
