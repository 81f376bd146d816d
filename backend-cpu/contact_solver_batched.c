// The batched solver: projected Gauss-Seidel over colour batches, warm started, with split-impulse
// position correction.
//
// A colour holds no dynamic body twice, so its constraints are solved in parallel without races and
// in any order with the same result: the velocities after each colour do not depend on the thread
// count. Colours run one after the other (the barrier at the end of each `omp for`).
#include <string.h>

#include "contact_solver_split.h"
#include "cpu_context.h"
#include "kernels/shock_levels.h"

typedef struct body_vel {
    rb_float3 v, w;
} body_vel;

static inline body_vel load(const rb_float4 *lin, const rb_float4 *ang, int b)
{
    body_vel r;
    if (b < 0) {
        r.v = rb_f3(0.0f, 0.0f, 0.0f);
        r.w = r.v;
    } else {
        r.v = rb_xyz(lin[b]);
        r.w = rb_xyz(ang[b]);
    }
    return r;
}

// Only dynamic bodies take impulses; kinematic, static and frozen ones are read-only.
static inline void store(const rb_scene *s, rb_float4 *lin, rb_float4 *ang, int b, body_vel r)
{
    if (b >= 0 && (s->body_flags[b] & (RB_BODY_TYPE_MASK | RB_BODY_FROZEN)) == RB_BODY_DYNAMIC_T) {
        lin[b] = rb_f4_from3(r.v, 0.0f);
        ang[b] = rb_f4_from3(r.w, 0.0f);
    }
}

enum { OP_MEASURE, OP_WARM_START, OP_SOLVE, OP_RESTITUTION, OP_POSITION };

static void apply(rb_cpu_ctx *c, rb_contact_constraint *k, int op, rb_solve_settings st, float restitution_threshold)
{
    rb_scene *s = c->scene;
    // the position pass works on the pseudo velocities, everything else on the real ones
    rb_float4 *lin = op == OP_POSITION ? c->pseudo_lin_vel : s->body_lin_vel;
    rb_float4 *ang = op == OP_POSITION ? c->pseudo_ang_vel : s->body_ang_vel;
    body_vel a = load(lin, ang, k->body_a), b = load(lin, ang, k->body_b);
    rb_contact_point *pts = &c->points[k->first_point];
    switch (op) {
    case OP_MEASURE: rb_contact_measure(k, pts, a.v, a.w, b.v, b.w); return;
    case OP_WARM_START: rb_contact_warm_start(k, pts, &a.v, &a.w, &b.v, &b.w); break;
    case OP_SOLVE: rb_contact_solve(k, pts, st, &a.v, &a.w, &b.v, &b.w); break;
    case OP_RESTITUTION: rb_contact_restitution(k, pts, restitution_threshold, st.slop, &a.v, &a.w, &b.v, &b.w); break;
    case OP_POSITION: rb_contact_solve_position(k, pts, st, &a.v, &a.w, &b.v, &b.w); break;
    }
    store(s, lin, ang, k->body_a, a);
    store(s, lin, ang, k->body_b, b);
}

// One sweep of `op` over every colour, then the overflow batch; constraints are stored in colour
// order. Called inside a parallel region.
static void sweep(rb_cpu_ctx *c, int op, rb_solve_settings st, float restitution_threshold)
{
    for (int k = 0; k < c->color_count; ++k) {
        int lo = c->color_start[k], hi = c->color_start[k + 1];
#pragma omp for schedule(static)
        for (int i = lo; i < hi; ++i)
            apply(c, &c->constraints[i], op, st, restitution_threshold);
    }
    int lo = c->color_start[RB_MAX_COLORS], hi = c->color_start[RB_MAX_COLORS + 1];
    if (hi > lo) {
#pragma omp single
        for (int i = lo; i < hi; ++i)
            apply(c, &c->constraints[i], op, st, restitution_threshold);
    }
}

// The rigid shock pass (core/kernels/shock_levels.h) over the levels: a level's bodies are independent
// (each against its own supports below), so each level is one parallel loop. Called inside a parallel
// region.
void rb_cpu_shock_pass_rigid(rb_cpu_ctx *c, rb_solve_settings st, int position)
{
    rb_scene *s = c->scene;
    rb_float4 *lin = position ? c->pseudo_lin_vel : s->body_lin_vel;
    rb_float4 *ang = position ? c->pseudo_ang_vel : s->body_ang_vel;
    for (int l = 0; l < c->shock_levels; ++l) {
        int lo = c->shock_level_start[l], hi = c->shock_level_start[l + 1];
#pragma omp for schedule(static)
        for (int i = lo; i < hi; ++i)
            rb_shock_body(i, position, st, c->shock_support_start, c->shock_supports, c->constraints, c->points,
                          s->body_flags, RB_BODY_FROZEN, lin, ang);
    }
}

// Impulses go back to the manifolds: contact readback and next step's warm start.
static void store_impulses(rb_cpu_ctx *c, float inv_h, float slop)
{
    int n = c->manifold_count;
#pragma omp for schedule(static)
    for (int j = 0; j < n; ++j) {
        rb_contact_manifold *m = &c->manifolds[c->color_order[j]];
        const rb_contact_constraint *k = &c->constraints[j];
        const rb_contact_point *pts = &c->points[k->first_point];
        for (int j = 0; j < k->count; ++j) {
            m->normal_impulse[j] = pts[j].n.impulse;
            m->friction_impulse[j] = rb_contact_friction_impulse(&pts[j]);
            m->carried_impact[j] = rb_contact_impact_speed(&pts[j], inv_h, slop);
        }
    }
}

void rb_cpu_store_impulses(rb_cpu_ctx *c, float inv_h, float slop)
{
#pragma omp parallel num_threads(c->team)
    store_impulses(c, inv_h, slop);
}

rb_status rb_cpu_solve_batched(rb_cpu_ctx *c, const rb_step_params *p)
{
    int nb = c->scene->body_slots;
    // pseudo velocities start at rest every substep (integrate_positions adds them)
    memset(c->pseudo_lin_vel, 0, sizeof *c->pseudo_lin_vel * (size_t)nb);
    memset(c->pseudo_ang_vel, 0, sizeof *c->pseudo_ang_vel * (size_t)nb);
    if (c->manifold_count == 0)
        return RB_OK;
    rb_solve_settings st;
    st.inv_h = p->inv_dt;
    st.bias_factor = p->position_correction;
    st.slop = p->linear_slop;
    st.max_push = p->max_push_velocity;
    float threshold = p->restitution_threshold;

    int n = c->manifold_count;
#pragma omp parallel num_threads(c->team)
    {
        if (c->any_restitution) {
            // read-only: any order, no colours needed
#pragma omp for schedule(static)
            for (int i = 0; i < n; ++i)
                apply(c, &c->constraints[i], OP_MEASURE, st, threshold);
        }
        sweep(c, OP_WARM_START, st, threshold);
        for (int it = 0; it < p->iterations; ++it)
            sweep(c, OP_SOLVE, st, threshold);
        rb_cpu_shock_pass_rigid(c, st, 0);
        if (c->any_restitution)
            sweep(c, OP_RESTITUTION, st, threshold);
        for (int it = 0; it < p->position_iterations; ++it)
            sweep(c, OP_POSITION, st, threshold);
        rb_cpu_shock_pass_rigid(c, st, 1);
        store_impulses(c, st.inv_h, st.slop);
    }
    return RB_OK;
}
