// update_sleep: bodies at rest long enough fall asleep together with everything they touch.
//
// Islands are the connected components of the constraint graph over dynamic and moving kinematic
// bodies (static bodies do not connect; core/kernels/constraint_graph.h). An island sleeps when every body in it has been slower than the
// sleep tolerances for time_to_sleep; its bodies keep the island's id as their sleep group, so a touch
// on any of them later wakes the whole group (build_batches).
#include <string.h>

#include "cpu_context.h"
#include "kernels/rest_timer.h"

static int joins_islands(const rb_scene *s, int b) { return rb_joins_islands(s->body_flags[b]); }

rb_status rb_cpu_sleep_islands(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_scene *s = c->scene;
    int n = s->body_slots;
    float h = p->dt;

    // per-body rest timers
    int awake = 0;
#pragma omp parallel for schedule(static) num_threads(c->team) reduction(+ : awake)
    for (int b = 0; b < n; ++b) {
        if (!joins_islands(s, b))
            continue;
        ++awake;
        s->body_params[b].w = rb_rest_timer(s->body_params[b].w, &c->rest_low[b],
                                            (s->body_flags[b] & RB_BODY_SLEEP_ENABLED) != 0,
                                            rb_xyz(s->body_lin_vel[b]), rb_xyz(s->body_ang_vel[b]),
                                            s->body_local_center[b].w, p->linear_sleep_tolerance,
                                            p->angular_sleep_tolerance, h);
    }
    c->awake_bodies = awake;
    if (!p->enable_sleep || awake == 0)
        return RB_OK;

    // islands over this step's edges
    int *parent = c->island_parent;
    for (int b = 0; b < n; ++b)
        parent[b] = b;
    rb_unite_islands(c->edge_count, c->edges, s->body_flags, parent);
    rb_unite_islands(c->joint_edge_count, c->joint_edges, s->body_flags, parent);
    // an island rests for as long as its most restless body
    float *rest = c->island_sleep_time;
    for (int b = 0; b < n; ++b)
        rest[b] = 1e30f;
    for (int b = 0; b < n; ++b) {
        if (!joins_islands(s, b))
            continue;
        int r = rb_find_root(parent, b);
        float t = s->body_params[b].w;
        if (t < rest[r])
            rest[r] = t;
    }
    int slept = 0;
    for (int b = 0; b < n; ++b) {
        if (!joins_islands(s, b))
            continue;
        int r = rb_find_root(parent, b);
        if (rest[r] < p->time_to_sleep)
            continue;
        s->body_flags[b] &= ~RB_BODY_AWAKE;
        s->body_lin_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        s->body_ang_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        s->body_sleep_group[b] = r;
        ++slept;
    }
    c->awake_bodies = awake - slept;
    return RB_OK;
}
