// The batched solver: projected Gauss-Seidel over colour batches, warm started, with split-impulse
// position correction.
//
// A colour holds no dynamic body twice, so its constraints are solved in parallel without races and
// in any order with the same result: the velocities after each colour do not depend on the thread
// count. Colours run one after the other (the barrier at the end of each `omp for`).
#include <string.h>

#include "contact_solver_split.h"
#include "cpu_context.h"
#include "kernels/contact_apply.h"
#include "kernels/shock_levels.h"

// Load, apply, store (core/kernels/contact_apply.h, as the device kernels do), on the constraint and
// its points in place. The position pass works on the pseudo velocities, everything else on the real ones.
static inline void apply(rb_cpu_ctx *c, const rb_contact_constraint *k, int op, rb_solve_settings st,
                         float restitution_threshold)
{
    rb_scene *s = c->scene;
    rb_float4 *lin = op == RB_OP_POSITION ? c->pseudo_lin_vel : s->body_lin_vel;
    rb_float4 *ang = op == RB_OP_POSITION ? c->pseudo_ang_vel : s->body_ang_vel;
    rb_contact_apply_to_bodies(op, k, &c->points[k->first_point], st, restitution_threshold, s->body_flags, lin, ang);
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
                          s->body_flags, lin, ang);
    }
}

// Impulses go back to the manifolds: contact readback and next step's warm start.
static void store_impulses(rb_cpu_ctx *c, float inv_h, float slop)
{
    int n = c->manifold_count;
#pragma omp for schedule(static)
    for (int j = 0; j < n; ++j) {
        const rb_contact_constraint *k = &c->constraints[j];
        rb_contact_store_impulses(&c->manifolds[c->color_order[j]], &c->points[k->first_point], k->count, inv_h, slop);
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
    rb_zero(c->pseudo_lin_vel, sizeof *c->pseudo_lin_vel * (size_t)nb);
    rb_zero(c->pseudo_ang_vel, sizeof *c->pseudo_ang_vel * (size_t)nb);
    // joints: velocity rows with the Baumgarte bias (core/kernels/joint.h, RB_JOINT_PASS_RIGID)
    rb_joint_settings jst = rb_cpu_joint_settings(p, RB_JOINT_PASS_RIGID);
    if (c->manifold_count == 0) {
        rb_cpu_solve_joints_only(c, p, &jst);
        return RB_OK;
    }
    rb_solve_settings st;
    st.inv_h = p->inv_dt;
    st.bias_factor = p->position_correction;
    st.slop = p->linear_slop;
    st.max_push = p->max_push_velocity;
    float threshold = p->restitution_threshold;
    rb_joint_settings jpos = rb_cpu_joint_settings(p, RB_JOINT_PASS_POSITION);

    int n = c->manifold_count;
#pragma omp parallel num_threads(c->team)
    {
        if (c->any_restitution) {
            // read-only: any order, no colours needed
#pragma omp for schedule(static)
            for (int i = 0; i < n; ++i)
                apply(c, &c->constraints[i], RB_OP_MEASURE, st, threshold);
        }
        sweep(c, RB_OP_WARM_START, st, threshold);
        rb_cpu_joints_warm_start(c, &jst);
        for (int it = 0; it < p->iterations; ++it) {
            rb_cpu_joints_solve(c, &jst);
            sweep(c, RB_OP_SOLVE, st, threshold);
        }
        rb_cpu_shock_pass_rigid(c, st, 0);
        if (c->any_restitution)
            sweep(c, RB_OP_RESTITUTION, st, threshold);
        for (int it = 0; it < p->position_iterations; ++it) {
            rb_cpu_joints_solve(c, &jpos);
            sweep(c, RB_OP_POSITION, st, threshold);
        }
        rb_cpu_shock_pass_rigid(c, st, 1);
        store_impulses(c, st.inv_h, st.slop);
    }
    rb_cpu_joints_finish(c, p->inv_dt);
    return RB_OK;
}

// The joints of a substep without contacts, for the rigid solvers: warm start, `iterations` passes with
// the Baumgarte bias, the reactions.
void rb_cpu_solve_joints_only(rb_cpu_ctx *c, const rb_step_params *p, const rb_joint_settings *jst)
{
    if (c->joint_edge_count == 0)
        return;
#pragma omp parallel num_threads(c->team)
    {
        rb_cpu_joints_warm_start(c, jst);
        for (int it = 0; it < p->iterations; ++it)
            rb_cpu_joints_solve(c, jst);
    }
    rb_cpu_joints_finish(c, p->inv_dt);
}
