// update_sleep: bodies at rest long enough fall asleep together with everything they touch.
//
// Islands are the connected components of the contact graph over dynamic and moving kinematic bodies
// (static bodies do not connect). An island sleeps when every body in it has been slower than the
// sleep tolerances for time_to_sleep; its bodies keep the island's id as their sleep group, so a touch
// on any of them later wakes the whole group (build_batches).
#include <string.h>

#include "cpu_context.h"

static int find_root(int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]]; // path halving
        x = parent[x];
    }
    return x;
}

// Union by smaller index, so the root of an island is its lowest body slot (deterministic).
static void unite(int *parent, int a, int b)
{
    a = find_root(parent, a);
    b = find_root(parent, b);
    if (a < b)
        parent[b] = a;
    else if (b < a)
        parent[a] = b;
}

static int joins_islands(const rb_scene *s, int b)
{
    uint32_t f = s->body_flags[b];
    return (f & RB_BODY_AWAKE) && (f & RB_BODY_TYPE_MASK) != RB_BODY_STATIC_T;
}

rb_status rb_cpu_update_sleep(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    if (p->solver == RB_SOLVER_SEQUENTIAL) {
        rb_seq_update_sleep(c, p);
        return RB_OK;
    }
    rb_scene *s = c->scene;
    int n = s->body_slots;
    float h = p->dt;
    float lin2 = p->linear_sleep_tolerance * p->linear_sleep_tolerance;
    float ang2 = p->angular_sleep_tolerance * p->angular_sleep_tolerance;

    // per-body rest timers
    int awake = 0;
#pragma omp parallel for schedule(static) num_threads(c->team) reduction(+ : awake)
    for (int b = 0; b < n; ++b) {
        if (!joins_islands(s, b))
            continue;
        ++awake;
        uint32_t f = s->body_flags[b];
        float v2 = rb_len_sq(rb_xyz(s->body_lin_vel[b])), w2 = rb_len_sq(rb_xyz(s->body_ang_vel[b]));
        // Box2D's test, the speed of the surface |v| + r |w| (r the bounding radius) within the linear
        // tolerance, or both speeds within their own
        float surface = rb_sqrtf(v2) + s->body_local_center[b].w * rb_sqrtf(w2);
        int resting = (f & RB_BODY_SLEEP_ENABLED) &&
                      (surface <= p->linear_sleep_tolerance || (v2 <= lin2 && w2 <= ang2));
        s->body_params[b].w = resting ? s->body_params[b].w + h : 0.0f;
    }
    c->awake_bodies = awake;
    if (!p->enable_sleep || awake == 0)
        return RB_OK;

    // islands over this step's contacts
    int *parent = c->island_parent;
    for (int b = 0; b < n; ++b)
        parent[b] = b;
    for (int i = 0; i < c->manifold_count; ++i) {
        int a = c->manifolds[i].body_a, b = c->manifolds[i].body_b;
        if (joins_islands(s, a) && joins_islands(s, b))
            unite(parent, a, b);
    }
    // an island rests for as long as its most restless body
    float *rest = c->island_sleep_time;
    for (int b = 0; b < n; ++b)
        rest[b] = 1e30f;
    for (int b = 0; b < n; ++b) {
        if (!joins_islands(s, b))
            continue;
        int r = find_root(parent, b);
        float t = s->body_params[b].w;
        if (t < rest[r])
            rest[r] = t;
    }
    int slept = 0;
    for (int b = 0; b < n; ++b) {
        if (!joins_islands(s, b))
            continue;
        int r = find_root(parent, b);
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
