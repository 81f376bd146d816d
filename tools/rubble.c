// `rubble`: the command line of the rubble runtime. Dispatches to the commands in cmd_*.c.
// Uses only the public API (api/rubble.h). Exit statuses: cli_common.h and docs/cli.md.
#include <stdio.h>
#include <string.h>

#include "commands.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    void (*usage)(FILE *f);
    const char *summary;
} command;

static const command k_commands[] = {
    {"info", cmd_info, cmd_info_usage, "version, backends (built, can start here, device), threads, environment"},
    {"run", cmd_run, cmd_run_usage, "run a scene; print a summary, write the final state or the poses over time"},
    {"validate", cmd_validate, cmd_validate_usage, "load a scene without running it: bodies, shapes and OK, or why not"},
    {"bench", cmd_bench, cmd_bench_usage, "benchmark a standard scene; print one JSON line"},
    {"check", cmd_check, cmd_check_usage, "run a scene on two backends and compare them kernel by kernel"},
};
enum { COMMAND_COUNT = sizeof k_commands / sizeof k_commands[0] };

static void print_usage(FILE *f)
{
    fputs("usage: rubble COMMAND [options]\n\ncommands:\n", f);
    for (int i = 0; i < COMMAND_COUNT; ++i)
        cli_print_option(f, 9, k_commands[i].name, k_commands[i].summary);
    cli_print_option(f, 9, "help", "this text, or a command's: rubble help COMMAND");
    fputs("\n"
          "  rubble --version        print the version\n"
          "  rubble COMMAND --help   options of a command\n"
          "\n"
          "environment: RUBBLE_BACKEND (the default --backend), RUBBLE_THREADS, OMP_NUM_THREADS,\n"
          "RUBBLE_MODULE_PATH (where backend modules are looked for). See docs/cli.md.\n"
          "\n"
          "exit status: 0 success; 1 the scene, the library or the system failed (a scene that cannot be\n"
          "read, a backend that cannot start, a failed step, an output that cannot be written); 2 bad\n"
          "command line, nothing was run.\n",
          f);
}

static const command *find_command(const char *name)
{
    for (int i = 0; i < COMMAND_COUNT; ++i)
        if (strcmp(name, k_commands[i].name) == 0)
            return &k_commands[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    char names[256];
    size_t len = 0;
    for (int i = 0; i < COMMAND_COUNT; ++i)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s, ", k_commands[i].name);
    return cli_usage_error(NULL, "unknown command '%s': expected %shelp", name, names);
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "help") == 0) {
        print_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (argc > 2)
        return cli_usage_error(NULL, "help: one command expected, got '%s' and '%s'", argv[1], argv[2]);
    const command *c = find_command(argv[1]);
    if (!c)
        return unknown_command(argv[1]);
    c->usage(stdout);
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
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
        return unknown_command(name);
    }
    return c->run(argc - 1, argv + 1);
}
