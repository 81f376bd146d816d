// The soft solver's passes over the colour batches (core/step.c step_soft calls them in order): per
// substep a solve with the soft position bias (after the warm start) and a relax pass without it; at
// the end of the frame restitution and the impulses' store. The row code is core/kernels/contact_soft.h.
//
// As in the batched solver, a colour holds no dynamic body twice, so its manifolds are solved in
// parallel without races and the result does not depend on the thread count. The colours' passes and
// the shock pass run in SIMD lanes (contact_solver_wide.c), with the same results as the scalar passes
// here, which stay the reference (rb_cpu_ctx.soft_reference; tests/test_soft_wide.c compares them).
#include "contact_solver_wide.h"
#include "cpu_context.h"
#include "kernels/contact_apply.h"
#include "kernels/contact_soft.h"

// Sweeps over a manifold's normal rows per pass: one Gauss-Seidel sweep over four corner points leaves
// a box rocking (each corner alone mostly turns it), and the rocking walks a stack sideways (20 boxes:
// 0.5 m in 10 s with 1 sweep, 8 cm with 2, < 1 mm with 4; docs/solver.md). Repeating them while the
// manifold is in cache is cheap next to another pass over every colour.
#define RB_SOFT_SWEEPS 4
// The same for the shock pass, where one body moves against a fixed one (ten 2 mm plates rest at
// 19.7 mm with 4 sweeps, 20.0 with 8).
#define RB_SOFT_SHOCK_SWEEPS 8

enum { OP_SOLVE, OP_RELAX, OP_WARM_START, OP_RESTITUTION, OP_MEASURE };

typedef struct soft_pass {
    rb_soft_settings st;
    float restitution_threshold;
    float slop;
} soft_pass;

// Only dynamic bodies take impulses; static ones (slot -1), kinematic and frozen ones are read-only
// (rb_store_vel).
static void store_pair(rb_scene *s, int a, rb_float3 va, rb_float3 wa, int b, rb_float3 vb, rb_float3 wb)
{
    rb_store_vel(s->body_lin_vel, s->body_ang_vel, s->body_flags, a, va, wa);
    rb_store_vel(s->body_lin_vel, s->body_ang_vel, s->body_flags, b, vb, wb);
}

static rb_solver_body current_body(const rb_cpu_ctx *c, int b);

// A bounce carried from an earlier step's speculative stop is launched at the end of this one, after
// the substeps moved the bodies: between two moving bodies its rows are rebuilt at the current poses
// (as rb_soft_refresh_constraint does for closing points), so the launch keeps the angular momentum.
static void refresh_carried(rb_cpu_ctx *c, const rb_contact_constraint *k)
{
    if (k->inv_mass_a == 0.0f || k->inv_mass_b == 0.0f || k->restitution == 0.0f)
        return;
    rb_contact_point *pts = &c->points[k->first_point];
    int any = 0;
    for (int i = 0; i < k->count; ++i)
        any |= pts[i].carried_impact > 0.0f;
    if (!any)
        return;
    rb_solver_body A = current_body(c, k->body_a), B = current_body(c, k->body_b);
    for (int i = 0; i < k->count; ++i)
        if (pts[i].carried_impact > 0.0f)
            rb_contact_refresh_point(k, &pts[i], &A, &B);
}

static void apply(rb_cpu_ctx *c, rb_contact_constraint *k, int op, const soft_pass *sp)
{
    rb_scene *s = c->scene;
    rb_float4 *lin = s->body_lin_vel, *ang = s->body_ang_vel;
    int a = k->body_a, b = k->body_b;
    rb_float3 zero = rb_f3(0.0f, 0.0f, 0.0f);
    rb_float3 va = a >= 0 ? rb_xyz(lin[a]) : zero, wa = a >= 0 ? rb_xyz(ang[a]) : zero;
    rb_float3 vb = b >= 0 ? rb_xyz(lin[b]) : zero, wb = b >= 0 ? rb_xyz(ang[b]) : zero;
    rb_contact_point *pts = &c->points[k->first_point];
    switch (op) {
    case OP_SOLVE:
    case OP_RELAX: {
        rb_float3 pa = a >= 0 ? rb_xyz(s->body_pos[a]) : zero, pb = b >= 0 ? rb_xyz(s->body_pos[b]) : zero;
        rb_float4 qa = a >= 0 ? s->body_rot[a] : rb_f4(0.0f, 0.0f, 0.0f, 1.0f);
        rb_float4 qb = b >= 0 ? s->body_rot[b] : rb_f4(0.0f, 0.0f, 0.0f, 1.0f);
        rb_contact_solve_soft(k, pts, &sp->st, op == OP_SOLVE, pa, qa, pb, qb, &va, &wa, &vb, &wb);
        break;
    }
    case OP_WARM_START: rb_contact_warm_start(k, pts, &va, &wa, &vb, &wb); break;
    case OP_MEASURE: rb_contact_measure(k, pts, va, wa, vb, wb); return;
    case OP_RESTITUTION:
        refresh_carried(c, k);
        rb_contact_restitution_launch(k, pts, sp->restitution_threshold, sp->slop, 1, &va, &wa, &vb, &wb);
        break;
    }
    store_pair(s, a, va, wa, b, vb, wb);
}

// The supported body of constraint j against its fixed support (fixed_a: A supports).
static void apply_shock(rb_cpu_ctx *c, int j, int fixed_a, int use_bias, const soft_pass *sp)
{
    rb_scene *s = c->scene;
    rb_contact_constraint *k = &c->constraints[j];
    rb_float4 *lin = s->body_lin_vel, *ang = s->body_ang_vel;
    int a = k->body_a, b = k->body_b;
    rb_float3 zero = rb_f3(0.0f, 0.0f, 0.0f);
    rb_float4 id = rb_f4(0.0f, 0.0f, 0.0f, 1.0f);
    rb_float3 va = a >= 0 ? rb_xyz(lin[a]) : zero, wa = a >= 0 ? rb_xyz(ang[a]) : zero;
    rb_float3 vb = b >= 0 ? rb_xyz(lin[b]) : zero, wb = b >= 0 ? rb_xyz(ang[b]) : zero;
    rb_float3 pa = a >= 0 ? rb_xyz(s->body_pos[a]) : zero, pb = b >= 0 ? rb_xyz(s->body_pos[b]) : zero;
    rb_float4 qa = a >= 0 ? s->body_rot[a] : id, qb = b >= 0 ? s->body_rot[b] : id;
    const rb_contact_point *pts = &c->points[k->first_point];
    float accumulated[RB_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < k->count; ++i)
        accumulated[i] = pts[i].n.impulse;
    rb_contact_solve_shock(k, pts, accumulated, &sp->st, use_bias, fixed_a, pa, qa, pb, qb, &va, &wa, &vb, &wb);
    int m = fixed_a ? b : a; // the moving body: dynamic (shock_levels.c levels only bodies with mass)
    lin[m] = rb_f4_from3(fixed_a ? vb : va, 0.0f);
    ang[m] = rb_f4_from3(fixed_a ? wb : wa, 0.0f);
}

// One pass from the ground up: a level's bodies each against their supports, in parallel.
static void shock_pass(rb_cpu_ctx *c, int use_bias, const soft_pass *sp)
{
    const int *ss = c->shock_support_start;
    for (int l = 0; l < c->shock_levels; ++l) {
        int lo = c->shock_level_start[l], hi = c->shock_level_start[l + 1];
#pragma omp for schedule(static)
        for (int i = lo; i < hi; ++i)
            for (int e = ss[i]; e < ss[i + 1]; ++e)
                apply_shock(c, c->shock_supports[e] >> 1, c->shock_supports[e] & 1, use_bias, sp);
    }
}

// Above this many candidate points the impacts are left to the end-of-frame restitution (Box2D's): the
// search below is linear per resolution.
#define IMPACT_MAX_POINTS 512

static rb_float3 vel_of(const rb_float4 *v, int b) { return b >= 0 ? rb_xyz(v[b]) : rb_f3(0.0f, 0.0f, 0.0f); }

// A point's gap now: at the first substep the narrow phase's, later from the bodies' current poses.
static float gap_now(const rb_cpu_ctx *c, const rb_contact_constraint *k, const rb_contact_point *p, int first)
{
    if (first)
        return p->separation;
    const rb_scene *s = c->scene;
    rb_float3 zero = rb_f3(0.0f, 0.0f, 0.0f);
    rb_float4 id = rb_f4(0.0f, 0.0f, 0.0f, 1.0f);
    int a = k->body_a, b = k->body_b;
    return rb_contact_separation(k, p, a >= 0 ? rb_xyz(s->body_pos[a]) : zero, a >= 0 ? s->body_rot[a] : id,
                                 b >= 0 ? rb_xyz(s->body_pos[b]) : zero, b >= 0 ? s->body_rot[b] : id);
}

static float closing_now(const rb_cpu_ctx *c, const rb_contact_constraint *k, const rb_contact_point *p)
{
    const rb_float4 *lin = c->scene->body_lin_vel, *ang = c->scene->body_ang_vel;
    return rb_contact_closing_speed(k, p, vel_of(lin, k->body_a), vel_of(ang, k->body_a), vel_of(lin, k->body_b),
                                    vel_of(ang, k->body_b));
}

// Whether body a or b of constraint j meets a third body through a bouncy point among the first
// `count` candidates (touching, or a gap between moving bodies): an impact there travels on, and the
// order of the impacts matters.
static int in_a_row(const rb_cpu_ctx *c, int j, int a, int b, int count)
{
    for (int e = 0; e < count; ++e) {
        int other = c->impact[e] / RB_MAX_MANIFOLD_POINTS;
        const rb_contact_constraint *k = &c->constraints[other];
        if (other != j && (k->body_a == a || k->body_b == a || k->body_a == b || k->body_b == b))
            return 1;
    }
    return 0;
}

// The impacts, largest closing speed first (rb_contact_resolve_impact), before a substep's solve:
// serial, at most 4 resolutions per touching point of a bouncy manifold, and nothing unless some point
// closes faster than the restitution threshold. The gaps are those of now (gap_now), so an impact that
// happens in the middle of a frame is resolved at the substep where it happens: a pendulum of a cradle
// strikes whenever its swing brings it there (resolved only at the frame's first substep, one pulled
// pendulum sent the far one to 48% of the height, the rest shared among the row).
//
// A point still a gap away between two moving bodies takes part too once its gap closes within one
// substep at the speed it closes now: the balls of a Newton's cradle hung 1 mm apart. Left to the
// substeps, the row took the impact together, as one inelastic lump, and the bounces carried to the
// next frame could not undo it (one ball pulled: the last left at 0.71 m/s, the first bounced back,
// 30% of the energy lost). Against a fixed body the bounce still waits for the touch (the carried
// impact), which is exact for a fall. After the first substep only a gap between two moving bodies
// sets the pass off, and only where one of them meets a third (in_a_row: touching it, or a gap away,
// as in a cradle of balls hung 1 mm apart): a lone pair, or a fall the soft rows stopped at the touch,
// keeps the carried impact,
// launched at the touch along the touch's normal (resolved early along the normal of the frame's
// start, elastic glancing hits left up to 5.3 degrees off their direction and 14% off their speed).
static rb_status impact_pass(rb_cpu_ctx *c, const soft_pass *sp, float h, int first)
{
    if (!c->any_restitution)
        return RB_OK;
    rb_scene *s = c->scene;
    int n = 0, closing = 0;
    for (int j = 0; j < c->manifold_count; ++j) {
        const rb_contact_constraint *k = &c->constraints[j];
        if (k->restitution == 0.0f)
            continue;
        for (int i = 0; i < k->count; ++i) {
            const rb_contact_point *p = &c->points[k->first_point + i];
            // later in the frame, a point that touched at its start (a gap that closed since then had
            // its approach stopped by the soft rows, and its bounce is the carried impact's)
            if (gap_now(c, k, p, first) > sp->slop || p->separation > sp->slop)
                continue;
            if (n == IMPACT_MAX_POINTS)
                return RB_OK;
            c->impact[n++] = j * RB_MAX_MANIFOLD_POINTS + i;
            if (first)
                closing |= -p->relative_velocity > sp->restitution_threshold;
        }
    }
    // then the points a gap away between two moving bodies, as long as there is room
    int touching = n;
    for (int j = 0; j < c->manifold_count && n < IMPACT_MAX_POINTS; ++j) {
        const rb_contact_constraint *k = &c->constraints[j];
        if (k->restitution == 0.0f || k->inv_mass_a == 0.0f || k->inv_mass_b == 0.0f)
            continue;
        for (int i = 0; i < k->count && n < IMPACT_MAX_POINTS; ++i) {
            const rb_contact_point *p = &c->points[k->first_point + i];
            float gap = gap_now(c, k, p, first);
            if (gap > sp->slop && p->carried_impact == 0.0f) { // (a carried bounce is owed already)
                c->impact[n] = j * RB_MAX_MANIFOLD_POINTS + i;
                c->impact_gap[n++] = gap;
                if (first) {
                    float v = -p->relative_velocity;
                    closing |= v > sp->restitution_threshold && gap < v * h;
                }
            }
        }
    }
    for (int e = touching; !first && !closing && e < n; ++e) {
        int j = c->impact[e] / RB_MAX_MANIFOLD_POINTS;
        const rb_contact_constraint *k = &c->constraints[j];
        const rb_contact_point *p = &c->points[k->first_point + c->impact[e] % RB_MAX_MANIFOLD_POINTS];
        float v = closing_now(c, k, p);
        closing = v > sp->restitution_threshold && c->impact_gap[e] < v * h && in_a_row(c, j, k->body_a, k->body_b, n);
    }
    if (!closing)
        return RB_OK;
    // later in the frame the gaps' rows at the current poses, as the relax passes rebuild them (the
    // impulses on the two bodies on one line of action: angular momentum kept)
    for (int e = touching, last = -1; !first && e < n; ++e) {
        int j = c->impact[e] / RB_MAX_MANIFOLD_POINTS;
        if (j != last)
            rb_soft_refresh_constraint(c, j, sp->slop);
        last = j;
    }
    rb_float4 *lin = s->body_lin_vel, *ang = s->body_ang_vel;
    for (int budget = 4 * n; budget > 0; --budget) {
        int best = -1;
        float best_speed = sp->restitution_threshold;
        for (int e = 0; e < n; ++e) {
            const rb_contact_constraint *k = &c->constraints[c->impact[e] / RB_MAX_MANIFOLD_POINTS];
            const rb_contact_point *p = &c->points[k->first_point + c->impact[e] % RB_MAX_MANIFOLD_POINTS];
            float v = closing_now(c, k, p);
            if (e >= touching && !(c->impact_gap[e] < v * h))
                continue; // a gap that stays open this substep
            if (v > best_speed) { // ties: the first in constraint order (deterministic)
                best_speed = v;
                best = e;
            }
        }
        if (best < 0)
            break;
        const rb_contact_constraint *k = &c->constraints[c->impact[best] / RB_MAX_MANIFOLD_POINTS];
        rb_contact_point *p = &c->points[k->first_point + c->impact[best] % RB_MAX_MANIFOLD_POINTS];
        int a = k->body_a, b = k->body_b;
        rb_float3 va = vel_of(lin, a), wa = vel_of(ang, a), vb = vel_of(lin, b), wb = vel_of(ang, b);
        rb_contact_resolve_impact(k, p, best_speed, &va, &wa, &vb, &wb);
        store_pair(s, a, va, wa, b, vb, wb);
        p->relative_velocity = p->velocity_after_forces = 0.0f; // bounced: the end-of-frame restitution
                                                                 // leaves it alone
        p->carried_impact = 0.0f;
    }
    return RB_OK;
}

static rb_solver_body current_body(const rb_cpu_ctx *c, int b)
{
    const rb_scene *s = c->scene;
    rb_solver_body r;
    rb_float4 d = c->cur_inv_inertia_diag[b], o = c->cur_inv_inertia_offdiag[b];
    r.p = rb_xyz(s->body_pos[b]);
    r.q = s->body_rot[b];
    r.v = rb_xyz(s->body_lin_vel[b]);
    r.w = rb_xyz(s->body_ang_vel[b]);
    r.inv_mass = d.w;
    r.inv_inertia = rb_mat3_symmetric(rb_f3(d.x, d.y, d.z), rb_f3(o.x, o.y, o.z));
    r.is_static = 0;
    return r;
}

// Before the first pass after the bodies moved (each relax; the next substep's solve sees the same
// poses): the speculative
// points between two moving bodies get rows at the current poses (rb_contact_refresh_point), so a
// glancing hit keeps the angular momentum (|dL|/|L| 4e-3 without, 1e-6 with), or, once the two bodies
// have slid past each other (rb_contact_shadows_overlap), none (rb_contact_retire_point). Resting
// contacts move too little in a frame for it to matter, and keep the frame's rows.
int rb_soft_refresh_constraint(rb_cpu_ctx *c, int j, float slop)
{
    const rb_contact_constraint *k = &c->constraints[j];
    if (k->inv_mass_a == 0.0f || k->inv_mass_b == 0.0f)
        return 0;
    rb_contact_point *pts = &c->points[k->first_point];
    int any = 0;
    for (int i = 0; i < k->count; ++i)
        any |= pts[i].separation > slop;
    if (!any)
        return 0;
    rb_solver_body A = current_body(c, k->body_a), B = current_body(c, k->body_b);
    const rb_float4 *centre = c->scene->body_local_center; // w: bounding radius about the centre of mass
    int touchable = rb_contact_shadows_overlap(rb_sub(B.p, A.p), k->normal, centre[k->body_a].w, centre[k->body_b].w);
    for (int i = 0; i < k->count; ++i) {
        if (pts[i].separation <= slop)
            continue;
        if (touchable) {
            rb_contact_refresh_point(k, &pts[i], &A, &B);
        } else {
            rb_contact_retire_point(&pts[i]);
            if (i == 0)
                pts[0].twist_impulse = 0.0f; // a one-point contact's torsional row goes with it
        }
    }
    return 1;
}

static void refresh_closing_points(rb_cpu_ctx *c, float slop)
{
    int n = c->manifold_count;
#pragma omp for schedule(static)
    for (int j = 0; j < n; ++j)
        rb_soft_refresh_constraint(c, j, slop);
}

// The overflow batch: constraints that found every colour taken, by one thread, in c->points.
static void sweep_overflow(rb_cpu_ctx *c, int op, const soft_pass *sp, int refresh)
{
    int lo = c->color_start[RB_MAX_COLORS], hi = c->color_start[RB_MAX_COLORS + 1];
    if (hi > lo) {
#pragma omp single
        for (int i = lo; i < hi; ++i) {
            if (refresh)
                rb_soft_refresh_constraint(c, i, sp->slop);
            apply(c, &c->constraints[i], op, sp);
        }
    }
}

// One sweep of `op` over every colour, then the overflow batch. Called inside a parallel region.
static void sweep(rb_cpu_ctx *c, int op, const soft_pass *sp)
{
    for (int k = 0; k < c->color_count; ++k) {
        int lo = c->color_start[k], hi = c->color_start[k + 1];
#pragma omp for schedule(static)
        for (int i = lo; i < hi; ++i)
            apply(c, &c->constraints[i], op, sp);
    }
    sweep_overflow(c, op, sp, 0);
}

// The same with the colours in lanes (contact_solver_wide.c), each group prepared just before its pass
// (`prepare`: RB_WIDE_FILL, RB_WIDE_REFRESH or 0); the overflow batch stays scalar.
static void sweep_wide(rb_cpu_ctx *c, int op, const soft_pass *sp, int prepare)
{
    if (op == OP_WARM_START)
        rb_wide_warm_start(c, prepare, sp->slop);
    else
        rb_wide_solve(c, &sp->st, op == OP_SOLVE, prepare == RB_WIDE_REFRESH);
    sweep_overflow(c, op, sp, prepare == RB_WIDE_REFRESH);
}

// The joints' part of each stage when there is no contact (core/kernels/joint.h): warm start and solve
// with the soft bias, relax without it. With contacts the joints run after them in each pass, so the
// joints hold best (ragdolls on the ground: anchor gaps 6.4 mm against 7.3 mm, hinge axes 0.04 rad
// against 0.07 after 10 s). The reactions (and breaking) come after the last substep, outside.
static void joints_stage(rb_cpu_ctx *c, const rb_step_params *p, const rb_joint_settings *solve,
                         const rb_joint_settings *relax)
{
    if (p->stage == RB_STAGE_SOLVE) {
        rb_cpu_joints_warm_start(c, solve);
        rb_cpu_joints_solve(c, solve);
    } else if (p->stage == RB_STAGE_RELAX) {
        rb_cpu_joints_solve(c, relax);
    }
}

rb_status rb_cpu_solve_soft(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_joint_settings jsolve = rb_cpu_joint_settings(p, RB_JOINT_PASS_SOFT);
    rb_joint_settings jrelax = rb_cpu_joint_settings(p, RB_JOINT_PASS_RELAX);
    if (p->stage == RB_STAGE_FINISH)
        rb_cpu_joints_finish(c, p->inv_dt);
    if (c->manifold_count == 0) {
        if (c->joint_edge_count > 0 && p->stage != RB_STAGE_FINISH) {
#pragma omp parallel num_threads(c->team)
            joints_stage(c, p, &jsolve, &jrelax);
        }
        return RB_OK;
    }
    soft_pass sp;
    float h = p->dt;
    sp.st.inv_h = p->inv_dt;
    sp.st.max_push = p->max_push_velocity;
    sp.st.slop = p->linear_slop;
    sp.st.soft = rb_make_softness(p->contact_hertz, p->contact_damping_ratio, h, 0.0f);
    sp.st.soft_static = rb_make_softness(2.0f * p->contact_hertz, p->contact_damping_ratio, h, 0.0f);
    sp.restitution_threshold = p->restitution_threshold;
    sp.st.sweeps = RB_SOFT_SWEEPS;
    sp.st.shock_sweeps = RB_SOFT_SHOCK_SWEEPS;
    sp.slop = p->linear_slop;
    if (p->stage == RB_STAGE_SOLVE && p->substep == 0) {
        // the lanes hold the rows and impulses from the first solve to the end of the frame (allocated
        // here, before any velocity changes, so a failure leaves the world as it was)
        rb_status s;
        if (!c->soft_reference && (s = rb_wide_build(c)) != RB_OK)
            return s;
        if (!rb_cpu_reserve((void **)&c->impact, &c->impact_cap, IMPACT_MAX_POINTS, sizeof *c->impact) ||
            !rb_cpu_reserve((void **)&c->impact_gap, &c->impact_gap_cap, IMPACT_MAX_POINTS, sizeof *c->impact_gap))
            return RB_ERR_OUT_OF_MEMORY;
        // the approach speeds after one substep of gravity: the acceleration towards each surface, for
        // the speed at which a speculative contact will arrive and the bounce's launch speed
        if (c->any_restitution) {
            int n = c->manifold_count;
#pragma omp parallel for schedule(static) num_threads(c->team)
            for (int i = 0; i < n; ++i)
                apply(c, &c->constraints[i], OP_MEASURE, &sp);
        }
    }
    // before every pass that could stop a closing gap: each solve, and each relax (the bodies moved)
    if (p->stage == RB_STAGE_SOLVE || p->stage == RB_STAGE_RELAX)
        impact_pass(c, &sp, h, p->stage == RB_STAGE_SOLVE && p->substep == 0);
    int wide = !c->soft_reference;
#pragma omp parallel num_threads(c->team)
    {
        switch (p->stage) {
        case RB_STAGE_SOLVE:
            if (wide) {
                // a later substep's poses are those the relax pass refreshed the rows at
                sweep_wide(c, OP_WARM_START, &sp, p->substep > 0 ? 0 : RB_WIDE_FILL);
                rb_cpu_joints_warm_start(c, &jsolve);
                sweep_wide(c, OP_SOLVE, &sp, 0);
                rb_cpu_joints_solve(c, &jsolve);
                rb_wide_shock_pass(c, &sp.st, 1, p->substep == 0);
            } else {
                sweep(c, OP_WARM_START, &sp);
                rb_cpu_joints_warm_start(c, &jsolve);
                sweep(c, OP_SOLVE, &sp);
                rb_cpu_joints_solve(c, &jsolve);
                shock_pass(c, 1, &sp);
            }
            break;
        case RB_STAGE_RELAX:
            if (wide) {
                sweep_wide(c, OP_RELAX, &sp, RB_WIDE_REFRESH);
            } else {
                refresh_closing_points(c, sp.slop);
                sweep(c, OP_RELAX, &sp);
            }
            rb_cpu_joints_solve(c, &jrelax);
            break;
        default:
            if (wide)
                rb_wide_store(c);
            if (c->any_restitution)
                sweep(c, OP_RESTITUTION, &sp);
            break;
        }
    }
    if (p->stage == RB_STAGE_FINISH)
        rb_cpu_store_impulses(c, p->inv_dt, p->linear_slop);
    return RB_OK;
}
