// `rubble`: the command line of the rubble runtime. Dispatches to the commands in cmd_*.c.
// Uses only the public API (api/rubble.h). Exit status: 0 success, 1 library error, 2 bad usage.
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const char k_usage[] =
    "usage: rubble COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  info      version, backends (built, can start here, device), threads, environment\n"
    "  run       run a scene file or a built-in scene and print a summary (CSV, state hash)\n"
    "  bench     benchmark a standard scene (BENCH-SCENES.md); prints one JSON line\n"
    "  check     run a scene on two backends and compare them kernel by kernel\n"
    "  help      this text, or a command's: rubble help COMMAND\n"
    "\n"
    "  rubble --version        print the version\n"
    "  rubble COMMAND --help   options of a command\n"
    "\n"
    "environment: RUBBLE_BACKEND (cpu, opencl, cuda, auto), RUBBLE_THREADS, OMP_NUM_THREADS,\n"
    "RUBBLE_MODULE_PATH (where backend modules are looked for). See docs/cli.md.\n"
    "\n"
    "exit status: 0 success, 1 the library reported an error, 2 bad command line.\n";

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} command;

static const command k_commands[] = {
    {"info", cmd_info, cmd_info_usage},
    {"run", cmd_run, cmd_run_usage},
    {"bench", cmd_bench, cmd_bench_usage},
    {"check", cmd_check, cmd_check_usage},
};
enum { COMMAND_COUNT = sizeof k_commands / sizeof k_commands[0] };

static const command *find_command(const char *name)
{
    for (int i = 0; i < COMMAND_COUNT; ++i)
        if (strcmp(name, k_commands[i].name) == 0)
            return &k_commands[i];
    return NULL;
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        fputs(k_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (argc > 2)
        return cli_usage_error("help", "one command expected, got '%s' and '%s'", argv[1], argv[2]);
    if (strcmp(argv[1], "help") == 0) {
        fputs(k_usage, stdout);
        return CLI_EXIT_OK;
    }
    const command *c = find_command(argv[1]);
    if (!c)
        return cli_usage_error(NULL, "unknown command '%s': expected info, run, bench, check or help", argv[1]);
    fputs(c->usage, stdout);
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(k_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0 || strcmp(name, "version") == 0) {
        printf("rubble %s\n", rb_version_string());
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        return cmd_help(argc - 1, argv + 1);
    const command *c = find_command(name);
    if (!c) {
        if (name[0] == '-')
            return cli_usage_error(NULL, "unknown option '%s': options follow the command", name);
        return cli_usage_error(NULL, "unknown command '%s': expected info, run, bench, check or help", name);
    }
    return c->run(argc - 1, argv + 1);
}
