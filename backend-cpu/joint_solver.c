// Joints on the CPU (core/kernels/joint.h, docs/joints.md): their edges in the constraint graph, their
// colours, the passes every solver runs over them, and the pair filter for joined bodies.
//
// Joint edges are kept beside the contact edges (c->joint_edges; a contact edge's index stays its
// manifold's) and go through the same graph functions: waking, islands and colouring. A joint to the
// static world names its one body twice, which those functions read as "this body alone".
#include <stdlib.h>

#include "cpu_context.h"

// A joint takes part while it is on and not broken.
static int joint_live(const rb_joint *k) { return k->type >= 0 && (k->flags & RB_JF_ENABLED) && !(k->flags & RB_JF_BROKEN); }

rb_status rb_cpu_build_joint_edges(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
    c->joint_edge_count = 0;
    int n = 0;
    for (int j = 0; j < s->joint_slots; ++j)
        n += joint_live(&s->joints[j]);
    if (n == 0)
        return RB_OK;
    if (!rb_cpu_reserve((void **)&c->joint_edges, &c->joint_edge_cap, n, sizeof *c->joint_edges) ||
        !rb_cpu_reserve((void **)&c->joint_color_order, &c->joint_color_order_cap, n, sizeof *c->joint_color_order) ||
        !rb_cpu_reserve((void **)&c->joint_edge_color, &c->joint_edge_color_cap, n, sizeof *c->joint_edge_color) ||
        !rb_cpu_reserve((void **)&c->joint_geometry, &c->joint_geometry_cap, n, sizeof *c->joint_geometry) ||
        !rb_cpu_reserve((void **)&c->joint_geometry_epoch, &c->joint_geometry_epoch_cap, n,
                        sizeof *c->joint_geometry_epoch))
        return RB_ERR_OUT_OF_MEMORY;
    n = 0;
    for (int j = 0; j < s->joint_slots; ++j) {
        const rb_joint *k = &s->joints[j];
        if (!joint_live(k))
            continue;
        int a = k->body_a >= 0 ? k->body_a : k->body_b;
        rb_constraint_edge e = {a, k->body_b, RB_EDGE_JOINT, j, 1};
        c->joint_geometry_epoch[n] = c->pose_epoch - 1; // none kept yet
        c->joint_edges[n++] = e;
    }
    c->joint_edge_count = n;
    return RB_OK;
}

void rb_cpu_color_joints(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
    c->joint_color_count = 0;
    if (c->joint_edge_count == 0)
        return;
    rb_zero(c->color_mask, sizeof *c->color_mask * (size_t)s->body_slots);
    c->joint_color_count = rb_color_edges(c->joint_edge_count, c->joint_edges, s->body_flags, c->color_mask,
                                          c->joint_edge_color, c->joint_color_order, c->joint_color_start);
}

// ---- the passes ----

// Each joint's geometry and point mass matrix are computed once per pose and kept for the passes that
// follow at the same poses (the soft solver's relax and the next substep's warm start and solve; the
// rigid solvers' warm start and iterations): the six rotations and the 3x3 inverse were a quarter of
// the ragdolls' instructions, three times a substep. Each edge is visited by one thread per pass, so
// its entries need no locking.
static void joint_op(rb_cpu_ctx *c, int edge, const rb_joint_settings *st, int op)
{
    rb_scene *s = c->scene;
    int position = st->pass == RB_JOINT_PASS_POSITION; // on the pseudo velocities
    // the soft solver keeps the world inverse inertia of the current poses (integrate_positions)
    int cur = c->solver->current_inertia;
    int fresh = c->joint_geometry_epoch[edge] != c->pose_epoch;
    c->joint_geometry_epoch[edge] = c->pose_epoch;
    rb_joint_op(&s->joints[c->joint_edges[edge].first_row], op, st, s->body_flags, s->body_pos, s->body_rot,
                position ? c->pseudo_lin_vel : s->body_lin_vel, position ? c->pseudo_ang_vel : s->body_ang_vel,
                s->body_inv_inertia_diag, s->body_inv_inertia_offdiag, cur ? c->cur_inv_inertia_diag : NULL,
                cur ? c->cur_inv_inertia_offdiag : NULL, &c->joint_geometry[edge], fresh);
}

// A pass over the joints colour by colour, then the overflow one by one. Called inside a parallel
// region (every thread calls it).
static void joints_pass(rb_cpu_ctx *c, const rb_joint_settings *st, int op)
{
    for (int k = 0; k < c->joint_color_count; ++k) {
        int lo = c->joint_color_start[k], hi = c->joint_color_start[k + 1];
#pragma omp for schedule(static)
        for (int i = lo; i < hi; ++i)
            joint_op(c, c->joint_color_order[i], st, op);
    }
    int lo = c->joint_color_start[RB_MAX_COLORS], hi = c->joint_color_start[RB_MAX_COLORS + 1];
    if (hi > lo) {
#pragma omp single
        for (int i = lo; i < hi; ++i)
            joint_op(c, c->joint_color_order[i], st, op);
    }
}

void rb_cpu_joints_warm_start(rb_cpu_ctx *c, const rb_joint_settings *st)
{
    if (c->joint_edge_count > 0)
        joints_pass(c, st, RB_JOINT_OP_WARM);
}

void rb_cpu_joints_solve(rb_cpu_ctx *c, const rb_joint_settings *st)
{
    if (c->joint_edge_count > 0)
        joints_pass(c, st, RB_JOINT_OP_SOLVE);
}

rb_joint_settings rb_cpu_joint_settings(const rb_step_params *p, int pass)
{
    return rb_joint_settings_make(p->dt, p->inv_dt, p->joint_hertz, p->joint_damping_ratio, p->position_correction,
                                  p->max_push_velocity, pass);
}

// After the last substep: the force and torque of each joint; a joint past its breaking limits breaks
// (serial, in joint order: the same joints break for any thread count).
void rb_cpu_joints_finish(rb_cpu_ctx *c, float inv_h)
{
    rb_scene *s = c->scene;
    for (int i = 0; i < c->joint_edge_count; ++i)
        if (rb_joint_finish(&s->joints[c->joint_edges[i].first_row], inv_h, s->body_flags, s->body_pos, s->body_rot,
                            s->body_lin_vel, s->body_ang_vel, s->body_inv_inertia_diag, s->body_inv_inertia_offdiag))
            s->joint_version++; // the bodies may collide now
}

// For per-body sleeping (pe's): a dynamic body joined to an awake dynamic body stays awake, along whole
// chains. Returns the number of bodies kept awake.
int rb_cpu_joints_wake_partners(rb_cpu_ctx *c)
{
    rb_scene *s = c->scene;
    // forward then backward over the edges in each round: a chain (edges in joint order) wakes from
    // either end in one round; rounds repeat only for graphs whose order zigzags
    int n = c->joint_edge_count, woke = 0, changed = 1;
    for (int round = 0; changed && round <= n; ++round) {
        changed = 0;
        for (int k = 0; k < 2 * n; ++k) {
            int sleeper = rb_edge_wakes(c->joint_edges[k < n ? k : 2 * n - 1 - k], s->body_flags);
            if (sleeper < 0)
                continue;
            s->body_flags[sleeper] |= RB_BODY_AWAKE;
            ++woke;
            changed = 1;
        }
    }
    return woke;
}

// ---- joined bodies do not collide unless the joint says so: the keys the narrow phase looks up ----

static int cmp_joined_key(const void *x, const void *y)
{
    rb_joint_key a = *(const rb_joint_key *)x, b = *(const rb_joint_key *)y;
    return a < b ? -1 : a > b;
}

rb_status rb_cpu_update_nocollide(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
    if (c->nocollide_valid && c->nocollide_version == s->joint_version)
        return RB_OK;
    int n = 0;
    for (int j = 0; j < s->joint_slots; ++j) {
        const rb_joint *k = &s->joints[j];
        n += joint_live(k) && !(k->flags & RB_JF_COLLIDE) && k->body_a >= 0;
    }
    if (n > 0 && !rb_cpu_reserve((void **)&c->nocollide, &c->nocollide_cap, n, sizeof *c->nocollide))
        return RB_ERR_OUT_OF_MEMORY;
    n = 0;
    for (int j = 0; j < s->joint_slots; ++j) {
        const rb_joint *k = &s->joints[j];
        if (joint_live(k) && !(k->flags & RB_JF_COLLIDE) && k->body_a >= 0)
            c->nocollide[n++] = rb_joint_pair_key(k->body_a, k->body_b);
    }
    if (n > 1) // qsort of no array is undefined (UBSan), even for 0 elements
        qsort(c->nocollide, (size_t)n, sizeof *c->nocollide, cmp_joined_key);
    c->nocollide_count = n;
    c->nocollide_version = s->joint_version;
    c->nocollide_valid = 1;
    return RB_OK;
}
