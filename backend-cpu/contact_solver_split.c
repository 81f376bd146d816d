// The split solver on the CPU: projected Jacobi with mass splitting (core/kernels/contact_solver_split.h).
// The reference for the OpenCL backend's split solver, which runs the same two loops as kernels.
//
// Per sweep: every constraint block is solved against the velocities of the start of the sweep and
// its velocity changes are kept (one slot per block and side); then every dynamic body adds the
// changes of its blocks, in block order (a CSR list body -> blocks built once per step). Both loops
// are parallel with no races, and the result is the same for any thread count.
#include <stdlib.h>
#include <string.h>

#include "contact_solver_split.h"
#include "kernels/constraint_graph.h"
#include "kernels/contact_solver_split.h"

typedef struct rb_split_delta {
    rb_float4 va, wa, vb, wb;
} rb_split_delta;

struct rb_split_state {
    rb_split_delta *delta; // per constraint
    int delta_cap;
    int *body_start;       // CSR: blocks of body b are list[body_start[b] .. body_start[b + 1])
    int body_cap;
    int *list;             // constraint index * 2 + side (0 = A, 1 = B)
    int list_cap;
};

void rb_cpu_split_free(struct rb_split_state *st)
{
    if (!st)
        return;
    free(st->delta);
    free(st->body_start);
    free(st->list);
    free(st);
}

// The blocks of each body over the edges (CSR in constraint order), and the rows' split masses.
static rb_status build_split(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
    int n = c->edge_count, nb = s->body_slots;
    struct rb_split_state *st = c->split;
    if (!rb_cpu_reserve((void **)&st->delta, &st->delta_cap, n, sizeof *st->delta) ||
        !rb_cpu_reserve((void **)&st->body_start, &st->body_cap, nb + 1, sizeof *st->body_start) ||
        !rb_cpu_reserve((void **)&st->list, &st->list_cap, 2 * n, sizeof *st->list))
        return RB_ERR_OUT_OF_MEMORY;
    const int *start = st->body_start;
    rb_edge_body_lists(n, c->edges, c->color_order, nb, s->body_flags, st->body_start, st->list);

#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int j = 0; j < n; ++j) {
        rb_contact_constraint *k = &c->constraints[j];
        rb_split_prepare(k, &c->points[k->first_point], rb_split_share(start, s->body_flags, k->body_a),
                         rb_split_share(start, s->body_flags, k->body_b));
    }
    return RB_OK;
}

enum { OP_MEASURE, OP_WARM_START, OP_SOLVE, OP_RESTITUTION, OP_POSITION };

static rb_float3 vel(const rb_float4 *a, int b)
{
    return b >= 0 ? rb_xyz(a[b]) : rb_f3(0.0f, 0.0f, 0.0f);
}

// One Jacobi sweep of `op`: blocks against the sweep's starting velocities, then the per-body sums.
static void sweep(rb_cpu_ctx *c, int op, rb_solve_settings set, float threshold)
{
    rb_scene *s = c->scene;
    struct rb_split_state *st = c->split;
    rb_float4 *lin = op == OP_POSITION ? c->pseudo_lin_vel : s->body_lin_vel;
    rb_float4 *ang = op == OP_POSITION ? c->pseudo_ang_vel : s->body_ang_vel;
    int n = c->edge_count, nb = s->body_slots;
#pragma omp for schedule(static)
    for (int j = 0; j < n; ++j) {
        const rb_contact_constraint *k = &c->constraints[j];
        rb_contact_point *pts = &c->points[k->first_point];
        rb_float3 va0 = vel(lin, k->body_a), wa0 = vel(ang, k->body_a);
        rb_float3 vb0 = vel(lin, k->body_b), wb0 = vel(ang, k->body_b);
        rb_float3 va = va0, wa = wa0, vb = vb0, wb = wb0;
        switch (op) {
        case OP_WARM_START: rb_contact_warm_start(k, pts, &va, &wa, &vb, &wb); break;
        case OP_SOLVE: rb_contact_solve(k, pts, set, &va, &wa, &vb, &wb); break;
        case OP_RESTITUTION: rb_contact_restitution(k, pts, threshold, set.slop, &va, &wa, &vb, &wb); break;
        default: rb_contact_solve_position(k, pts, set, &va, &wa, &vb, &wb); break;
        }
        rb_split_delta *d = &st->delta[j];
        d->va = rb_f4_from3(rb_sub(va, va0), 0.0f);
        d->wa = rb_f4_from3(rb_sub(wa, wa0), 0.0f);
        d->vb = rb_f4_from3(rb_sub(vb, vb0), 0.0f);
        d->wb = rb_f4_from3(rb_sub(wb, wb0), 0.0f);
    }
#pragma omp for schedule(static)
    for (int b = 0; b < nb; ++b) {
        int lo = st->body_start[b], hi = st->body_start[b + 1];
        if (lo == hi)
            continue;
        rb_float3 v = rb_xyz(lin[b]), w = rb_xyz(ang[b]);
        for (int e = lo; e < hi; ++e) {
            const rb_split_delta *d = &st->delta[st->list[e] >> 1];
            int side_b = st->list[e] & 1;
            v = rb_add(v, rb_xyz(side_b ? d->vb : d->va));
            w = rb_add(w, rb_xyz(side_b ? d->wb : d->wa));
        }
        lin[b] = rb_f4_from3(v, 0.0f);
        ang[b] = rb_f4_from3(w, 0.0f);
    }
}

rb_status rb_cpu_solve_split(rb_cpu_ctx *c, const rb_step_params *p)
{
    int nb = c->scene->body_slots;
    rb_zero(c->pseudo_lin_vel, sizeof *c->pseudo_lin_vel * (size_t)nb);
    rb_zero(c->pseudo_ang_vel, sizeof *c->pseudo_ang_vel * (size_t)nb);
    rb_joint_settings jst = rb_cpu_joint_settings(p, RB_JOINT_PASS_RIGID);
    if (c->edge_count == 0) {
        rb_cpu_solve_joints_only(c, p, &jst);
        return RB_OK;
    }
    if (!c->split && !(c->split = calloc(1, sizeof *c->split)))
        return RB_ERR_OUT_OF_MEMORY;
    rb_status s = build_split(c);
    if (s != RB_OK)
        return s;
    rb_solve_settings set;
    set.inv_h = p->inv_dt;
    set.bias_factor = p->position_correction;
    set.slop = p->linear_slop;
    set.max_push = p->max_push_velocity;
    float threshold = p->restitution_threshold;
    rb_joint_settings jpos = rb_cpu_joint_settings(p, RB_JOINT_PASS_POSITION);
    int n = c->edge_count;
    rb_scene *sc = c->scene;
#pragma omp parallel num_threads(c->team)
    {
        if (c->any_restitution) {
#pragma omp for schedule(static)
            for (int j = 0; j < n; ++j) {
                const rb_contact_constraint *k = &c->constraints[j];
                rb_contact_measure(k, &c->points[k->first_point], vel(sc->body_lin_vel, k->body_a),
                                   vel(sc->body_ang_vel, k->body_a), vel(sc->body_lin_vel, k->body_b),
                                   vel(sc->body_ang_vel, k->body_b));
            }
        }
        sweep(c, OP_WARM_START, set, threshold);
        rb_cpu_joints_warm_start(c, &jst);
        // the joints by colours (Gauss-Seidel) between the Jacobi sweeps of the contacts
        for (int it = 0; it < p->iterations; ++it) {
            rb_cpu_joints_solve(c, &jst);
            sweep(c, OP_SOLVE, set, threshold);
        }
        rb_cpu_shock_pass_rigid(c, set, 0);
        if (c->any_restitution)
            for (int it = 0; it < RB_SPLIT_RESTITUTION_SWEEPS; ++it)
                sweep(c, OP_RESTITUTION, set, threshold);
        for (int it = 0; it < p->position_iterations; ++it) {
            rb_cpu_joints_solve(c, &jpos);
            sweep(c, OP_POSITION, set, threshold);
        }
        rb_cpu_shock_pass_rigid(c, set, 1);
    }
    rb_cpu_store_impulses(c, set.inv_h, set.slop);
    rb_cpu_joints_finish(c, p->inv_dt);
    return RB_OK;
}
