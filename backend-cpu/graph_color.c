// build_batches: wake sleeping groups that were touched, build one constraint per manifold and
// colour the constraints so that no dynamic body appears twice in a colour.
#include <string.h>

#include "cpu_context.h"

// A manifold between an awake moving body and a sleeping dynamic body wakes the sleeper's group.
// Returns the number of groups marked.
static int mark_touched_sleepers(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
    int marked = 0;
    for (int i = 0; i < c->manifold_count; ++i) {
        int a = c->manifolds[i].body_a, b = c->manifolds[i].body_b;
        uint32_t fa = s->body_flags[a], fb = s->body_flags[b];
        int sleeper = -1;
        if ((fa & RB_BODY_AWAKE) && !(fb & RB_BODY_AWAKE) && (fb & RB_BODY_TYPE_MASK) == RB_BODY_DYNAMIC_T)
            sleeper = b;
        else if ((fb & RB_BODY_AWAKE) && !(fa & RB_BODY_AWAKE) && (fa & RB_BODY_TYPE_MASK) == RB_BODY_DYNAMIC_T)
            sleeper = a;
        if (sleeper < 0)
            continue;
        // a body asleep on its own (set by the application) is its own group
        int group = s->body_sleep_group[sleeper] >= 0 ? s->body_sleep_group[sleeper] : sleeper;
        if (!c->wake_group[group]) {
            c->wake_group[group] = 1;
            ++marked;
        }
    }
    return marked;
}

int rb_cpu_wake_marked_groups(rb_cpu_ctx *c)
{
    rb_scene *s = c->scene;
    int woke = 0;
    for (int b = 0; b < s->body_slots; ++b) {
        uint32_t f = s->body_flags[b];
        if (!(f & RB_BODY_ALIVE) || (f & RB_BODY_AWAKE) || (f & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T ||
            (f & RB_BODY_FROZEN))
            continue;
        int group = s->body_sleep_group[b] >= 0 ? s->body_sleep_group[b] : b;
        if (c->wake_group[group]) {
            s->body_flags[b] = f | RB_BODY_AWAKE;
            s->body_params[b].w = 0.0f;
            s->body_sleep_group[b] = -1;
            ++woke;
        }
    }
    memset(c->wake_group, 0, (size_t)s->body_slots);
    return woke;
}

// A body as the solver sees it: static bodies have no velocity, only dynamic ones have mass.
static rb_solver_body solver_body(const rb_cpu_ctx *c, int b, int is_static, int dynamic)
{
    const rb_scene *s = c->scene;
    rb_solver_body r;
    rb_float3 zero = rb_f3(0.0f, 0.0f, 0.0f);
    r.p = rb_xyz(s->body_pos[b]);
    r.q = s->body_rot[b];
    r.v = is_static ? zero : rb_xyz(s->body_lin_vel[b]);
    r.w = is_static ? zero : rb_xyz(s->body_ang_vel[b]);
    r.inv_mass = dynamic ? s->body_inv_inertia_diag[b].w : 0.0f;
    r.inv_inertia = c->inv_inertia_world[b];
    r.is_static = is_static;
    return r;
}

// Constraint j is built from manifold color_order[j]: constraints and their points lie in memory in
// the order the sweeps visit them.
static void prepare_constraints(rb_cpu_ctx *c, float slop)
{
    const rb_scene *s = c->scene;
    int n = c->manifold_count;
    int first = 0;
    for (int j = 0; j < n; ++j) {
        c->constraints[j].first_point = first;
        first += c->manifolds[c->color_order[j]].m.count;
    }
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int j = 0; j < n; ++j) {
        const rb_contact_manifold *m = &c->manifolds[c->color_order[j]];
        rb_contact_constraint *k = &c->constraints[j];
        int a = m->body_a, b = m->body_b;
        int dyn_a = rb_body_is_dynamic(s, a), dyn_b = rb_body_is_dynamic(s, b);
        // static bodies have no velocity slot; kinematic ones are read, never written
        k->body_a = (s->body_flags[a] & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T ? -1 : a;
        k->body_b = (s->body_flags[b] & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T ? -1 : b;
        rb_contact_warm warm[RB_MAX_MANIFOLD_POINTS];
        for (int i = 0; i < m->m.count; ++i) {
            warm[i].friction = m->friction_impulse[i];
            warm[i].normal = m->normal_impulse[i];
            warm[i].carried_impact = m->carried_impact[i];
        }
        rb_solver_body A = solver_body(c, a, k->body_a < 0, dyn_a), B = solver_body(c, b, k->body_b < 0, dyn_b);
        rb_contact_material mat = {m->friction, m->static_friction, m->restitution};
        rb_contact_prepare(k, &c->points[k->first_point], &m->m, mat, slop, warm, &A, &B);
    }
}

// Greedy colouring in manifold order (so the result is the same for any thread count): each constraint
// takes the lowest colour neither of its dynamic bodies has used. Constraints that find all colours
// taken go to the overflow batch, solved by one thread after the colours.
static void color_constraints(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
    int n = c->manifold_count;
    memset(c->color_mask, 0, sizeof *c->color_mask * (size_t)s->body_slots);
    int count[RB_MAX_COLORS + 1];
    memset(count, 0, sizeof count);
    int used = 0;
    for (int i = 0; i < n; ++i) {
        const rb_contact_manifold *m = &c->manifolds[i];
        int da = rb_body_is_dynamic(s, m->body_a), db = rb_body_is_dynamic(s, m->body_b);
        uint64_t taken = (da ? c->color_mask[m->body_a] : 0) | (db ? c->color_mask[m->body_b] : 0);
        int color = RB_MAX_COLORS; // overflow
        if (~taken) {
            color = __builtin_ctzll(~taken);
            uint64_t bit = (uint64_t)1 << color;
            if (da)
                c->color_mask[m->body_a] |= bit;
            if (db)
                c->color_mask[m->body_b] |= bit;
            if (color + 1 > used)
                used = color + 1;
        }
        c->constraint_color[i] = color;
        count[color]++;
    }
    // counting sort by colour, stable in manifold order
    int start = 0;
    for (int k = 0; k <= RB_MAX_COLORS; ++k) {
        c->color_start[k] = start;
        start += count[k];
    }
    c->color_start[RB_MAX_COLORS + 1] = start;
    int fill[RB_MAX_COLORS + 1];
    memcpy(fill, c->color_start, sizeof fill);
    for (int i = 0; i < n; ++i)
        c->color_order[fill[c->constraint_color[i]]++] = i;
    c->color_count = used;
}

rb_status rb_cpu_build_batches(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    if (p->solver == RB_SOLVER_SEQUENTIAL)
        return rb_seq_build_batches(c, p);
    c->batch_count = 0;
    // Waking a group brings back contacts the broad phase skipped while it slept, so detection runs
    // again. Each round wakes at least one group, so this ends; in practice it runs once or twice.
    memset(c->wake_group, 0, (size_t)c->scene->body_slots);
    while (mark_touched_sleepers(c) > 0) {
        rb_cpu_wake_marked_groups(c);
        rb_status s;
        if ((s = rb_cpu_find_pairs(ctx, p)) != RB_OK || (s = rb_cpu_collide(ctx, p)) != RB_OK)
            return s;
    }

    int n = c->manifold_count;
    if (!rb_cpu_reserve((void **)&c->constraints, &c->constraint_cap, n, sizeof *c->constraints) ||
        !rb_cpu_reserve((void **)&c->points, &c->point_cap, c->contact_point_count, sizeof *c->points))
        return RB_ERR_OUT_OF_MEMORY;
    if (!rb_cpu_reserve((void **)&c->color_order, &c->color_order_cap, n, sizeof *c->color_order) ||
        !rb_cpu_reserve((void **)&c->constraint_color, &c->constraint_color_cap, n, sizeof *c->constraint_color))
        return RB_ERR_OUT_OF_MEMORY;

    color_constraints(c);
    prepare_constraints(c, p->linear_slop);
    // restitution needs two extra sweeps; most scenes have none
    c->any_restitution = 0;
    for (int i = 0; i < c->manifold_count; ++i)
        c->any_restitution |= c->manifolds[i].restitution > 0.0f;
    return rb_cpu_build_shock_levels(c, p->gravity);
}
