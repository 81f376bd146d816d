// World creation shared by the simulation commands (see commands.h).
#include <stdio.h>

#include "commands.h"

int cli_create_world(const char *command, const cli_common *c, rb_world_id *out)
{
    rb_world_def def = rb_default_world_def();
    def.backend = c->backend;
    def.solver = c->solver;
    def.threads = c->threads;
    if (rb_create_world(&def, out) != RB_OK) {
        // the library's sentence already says which backend and why, e.g.
        // "backend 'opencl' (asked for by the program) cannot start: ..."
        fprintf(stderr, "rubble %s: %s\n", command, rb_last_error(rb_null_world_id));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}
