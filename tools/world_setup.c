// World creation shared by the simulation commands (see commands.h).
#include <stdio.h>

#include "commands.h"

int cli_create_world(const char *who, const cli_common *c, rb_world_id *out)
{
    rb_world_def def = rb_default_world_def();
    def.backend = c->backend;
    def.solver = c->solver;
    def.threads = c->threads;
    if (rb_create_world(&def, out) != RB_OK) {
        // the library's sentence already says which backend and why, e.g.
        // "backend 'opencl' (asked for by the program) cannot start: ..."
        fprintf(stderr, "%s: %s\n", who, rb_last_error(rb_null_world_id));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

void cli_warn_imprecise(const char *who, rb_world_id world)
{
    rb_counters c;
    if (rb_world_get_counters(world, &c) != RB_OK || c.imprecise_bodies == 0)
        return;
    fflush(stdout); // after what was printed so far, where both go to one place
    fprintf(stderr,
            "%s: warning: %d moving bod%s too far from the origin for float positions to follow %s motion "
            "(rb_counters.imprecise_bodies; move the origin with rb_world_shift_origin, docs/large-worlds.md)\n",
            who, c.imprecise_bodies, c.imprecise_bodies == 1 ? "y is" : "ies are",
            c.imprecise_bodies == 1 ? "its" : "their");
}
