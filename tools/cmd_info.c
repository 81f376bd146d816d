// `rubble info`: version, backends (built, can start here, device or why not), the automatic
// choice, solvers, default thread count and the environment variables that steer them.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

void cmd_info_usage(FILE *f)
{
    fputs("usage: rubble info\n"
          "\n"
          "Print the library version, each backend: whether it is built, whether it can start on this\n"
          "machine and on which device, or why not; the backend the automatic choice takes here; the\n"
          "solvers; the default thread count; and the environment variables RUBBLE_BACKEND,\n"
          "RUBBLE_THREADS, OMP_NUM_THREADS, RUBBLE_MODULE_PATH.\n"
          "\n"
          "options:\n",
          f);
    cli_print_option(f, CMD_HELP_WIDTH, "-h, --help", "show this help");
}

static void print_backend(rb_backend b)
{
    rb_backend_info bi;
    memset(&bi, 0, sizeof bi);
    if (rb_backend_probe(b, &bi) != RB_OK) {
        printf("  %-8s probe failed: %s\n", rb_backend_name(b), rb_last_error(rb_null_world_id));
        return;
    }
    if (bi.available) {
        printf("  %-8s available   device: %s\n", bi.name, bi.device[0] ? bi.device : "(not named)");
        if (bi.message[0])
            printf("  %-8s             %s\n", "", bi.message);
    } else {
        printf("  %-8s %-11s %s\n", bi.name, bi.built ? "unavailable" : "not built",
               bi.message[0] ? bi.message : "(no reason given)");
    }
}

static void print_env(const char *name)
{
    const char *v = getenv(name);
    if (v)
        printf("  %-19s %s\n", name, v);
    else
        printf("  %-19s (not set)\n", name);
}

static void print_solvers(void)
{
    printf("solvers    ");
    // the solver enum is contiguous from RB_SOLVER_DEFAULT; the library names each one it knows
    for (int i = RB_SOLVER_DEFAULT + 1; i < 64; ++i) {
        const char *name = rb_solver_name((rb_solver)i);
        if (!name || strcmp(name, "unknown") == 0)
            break;
        printf("%s%s", i > RB_SOLVER_DEFAULT + 1 ? ", " : "", name);
    }
    printf("  (--solver default: the backend's own choice)\n");
}

// The automatic choice and the default thread count, from an empty world created as `rubble run`
// would create it.
static void print_auto_choice(void)
{
    rb_world_def def = rb_default_world_def();
    rb_world_id w;
    if (rb_create_world(&def, &w) != RB_OK) {
        printf("auto       cannot create a world: %s\n", rb_last_error(rb_null_world_id));
        return;
    }
    rb_world_info info;
    if (rb_world_get_info(w, &info) == RB_OK) {
        printf("auto       %s on %s\n", info.backend, info.device);
        printf("           chosen: %s\n", info.selection);
        printf("           default solver there: %s\n", info.solver);
        printf("threads    %d by default (RUBBLE_THREADS, else OMP_NUM_THREADS, else all cores)\n", info.threads);
    }
    rb_destroy_world(w);
}

int cmd_info(int argc, char **argv)
{
    cli_args a;
    cli_args_init(&a, "rubble info", argc, argv, 1);
    while (cli_args_next(&a)) {
        if (cli_args_is(&a, "-h") || cli_args_is(&a, "--help")) {
            cmd_info_usage(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_args_is_option(&a))
            return cli_usage_error("rubble info", "unknown option '%s'", a.name);
        return cli_usage_error("rubble info", "unexpected argument '%s'", a.name);
    }
    printf("rubble %s (library), command line built against %d.%d.%d\n", rb_version_string(), RB_VERSION_MAJOR,
           RB_VERSION_MINOR, RB_VERSION_PATCH);
    printf("backends\n");
    // every backend the library names, but auto (a choice, not a backend)
    for (int i = RB_BACKEND_AUTO + 1; strcmp(rb_backend_name((rb_backend)i), "unknown") != 0; ++i)
        print_backend((rb_backend)i);
    print_auto_choice();
    print_solvers();
    printf("environment\n");
    print_env("RUBBLE_BACKEND");
    print_env("RUBBLE_THREADS");
    print_env("OMP_NUM_THREADS");
    print_env("RUBBLE_MODULE_PATH");
    return CLI_EXIT_OK;
}
