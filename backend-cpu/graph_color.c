// build_batches of the batched, split and soft solvers: wake the sleeping groups that were touched,
// colour the edges so that no dynamic body appears twice in a colour, and build one constraint per
// edge in colour order.
#include <string.h>

#include "cpu_context.h"
#include "kernels/constraint_prepare.h"

// An edge between an awake moving body and a sleeping dynamic body wakes the sleeper's group.
// Returns the number of groups marked.
static int mark_sleepers_of(rb_cpu_ctx *c, const rb_constraint_edge *edges, int n)
{
    const rb_scene *s = c->scene;
    int marked = 0;
    for (int i = 0; i < n; ++i) {
        int sleeper = rb_edge_wakes(edges[i], s->body_flags);
        if (sleeper < 0)
            continue;
        int group = rb_sleep_group_of(s->body_sleep_group, sleeper);
        if (!c->wake_group[group]) {
            c->wake_group[group] = 1;
            ++marked;
        }
    }
    return marked;
}

// Over contacts and joints alike.
static int mark_touched_sleepers(rb_cpu_ctx *c)
{
    return mark_sleepers_of(c, c->edges, c->edge_count) + mark_sleepers_of(c, c->joint_edges, c->joint_edge_count);
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
        if (c->wake_group[rb_sleep_group_of(s->body_sleep_group, b)]) {
            s->body_flags[b] = f | RB_BODY_AWAKE;
            s->body_params[b].w = 0.0f;
            s->body_sleep_group[b] = -1;
            ++woke;
        }
    }
    rb_zero(c->wake_group, (size_t)s->body_slots);
    return woke;
}

#define RB_PREPARE_AHEAD 6

// Constraint j is built from edge color_order[j]: constraints and their points lie in memory in the
// order the sweeps visit them.
static void prepare_constraints(rb_cpu_ctx *c, float slop)
{
    const rb_scene *s = c->scene;
    int n = c->edge_count;
    int first = 0;
    for (int j = 0; j < n; ++j) {
        c->constraints[j].first_point = first;
        first += c->edges[c->color_order[j]].row_count;
    }
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int j = 0; j < n; ++j) {
        const rb_constraint_edge *e = &c->edges[c->color_order[j]];
        const rb_contact_manifold *m = &c->manifolds[c->color_order[j]]; // contact edge i is manifold i
        rb_contact_constraint *k = &c->constraints[j];
        // colour order visits the manifolds in no order of memory: fetch a few ahead (pile: this loop
        // waited on the manifold's cache lines for most of its time)
        if (j + RB_PREPARE_AHEAD < n) {
            const char *next = (const char *)&c->manifolds[c->color_order[j + RB_PREPARE_AHEAD]];
            for (size_t line = 0; line < sizeof *m; line += 64)
                __builtin_prefetch(next + line);
        }
        rb_contact_warm warm[RB_MAX_MANIFOLD_POINTS];
        for (int i = 0; i < m->m.count; ++i)
            warm[i] = rb_manifold_warm(m, i);
        rb_contact_material mat = {m->friction, m->static_friction, m->restitution};
        rb_prepare_contact_rows(k, &c->points[k->first_point], &m->m, mat, warm, slop, e->body_a, e->body_b,
                                s->body_flags, s->body_pos, s->body_rot, s->body_lin_vel, s->body_ang_vel,
                                s->body_inv_inertia_diag, c->inv_inertia_world);
    }
}

// Greedy colouring in edge order (core/kernels/constraint_graph.h), so the result is the same for any
// thread count and on every backend.
static void color_constraints(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
    rb_zero(c->color_mask, sizeof *c->color_mask * (size_t)s->body_slots);
    c->color_count = rb_color_edges(c->edge_count, c->edges, s->body_flags, c->color_mask, c->constraint_color,
                                    c->color_order, c->color_start);
}

// build_batches of the batched, split and soft solvers, after the edges (rb_cpu_build_edges).
rb_status rb_cpu_build_colored(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_backend_ctx *ctx = (rb_backend_ctx *)c;
    c->batch_count = 0;
    // Waking a group brings back contacts the broad phase skipped while it slept, so detection runs
    // again. Each round wakes at least one group, so this ends; in practice it runs once or twice.
    rb_zero(c->wake_group, (size_t)c->scene->body_slots);
    while (mark_touched_sleepers(c) > 0) {
        rb_cpu_wake_marked_groups(c);
        rb_status s;
        if ((s = rb_cpu_find_pairs(ctx, p)) != RB_OK || (s = rb_cpu_collide(ctx, p)) != RB_OK ||
            (s = rb_cpu_build_edges(c)) != RB_OK)
            return s;
    }

    int n = c->edge_count;
    if (!rb_cpu_reserve((void **)&c->constraints, &c->constraint_cap, n, sizeof *c->constraints) ||
        !rb_cpu_reserve((void **)&c->points, &c->point_cap, c->contact_point_count, sizeof *c->points))
        return RB_ERR_OUT_OF_MEMORY;
    if (!rb_cpu_reserve((void **)&c->color_order, &c->color_order_cap, n, sizeof *c->color_order) ||
        !rb_cpu_reserve((void **)&c->constraint_color, &c->constraint_color_cap, n, sizeof *c->constraint_color))
        return RB_ERR_OUT_OF_MEMORY;

    color_constraints(c);
    prepare_constraints(c, p->linear_slop);
    rb_cpu_color_joints(c);
    // restitution needs two extra sweeps; most scenes have none
    c->any_restitution = 0;
    for (int j = 0; j < n; ++j)
        c->any_restitution |= c->constraints[j].restitution > 0.0f;
    return RB_OK;
}
