// The solvers' per-constraint glue around contact_solver.h: load the two bodies' velocities, apply
// one operation of a sweep, store the velocities back to the bodies that take impulses; and the
// impulses' way back into the manifolds. The CPU's batched solver and the device kernels (batched and
// split) call these; the constraint and its points are in private memory (a device kernel copies
// them in and out), the bodies' velocities in the scene's arrays.
#ifndef RB_KERNELS_CONTACT_APPLY_H
#define RB_KERNELS_CONTACT_APPLY_H

#include "body_flags.h"
#include "contact_manifold.h"
#include "contact_solver.h"

// The operations of a sweep. The position pass runs on the pseudo velocities, the rest on the real ones.
#define RB_OP_MEASURE 0     // read-only: the approach speeds restitution needs
#define RB_OP_WARM_START 1  // last step's impulses; reads the points only
#define RB_OP_SOLVE 2
#define RB_OP_RESTITUTION 3
#define RB_OP_POSITION 4

// Body b's linear or angular velocity; the world (b < 0) is at rest.
RB_FN rb_float3 rb_load_vel(RB_GLOBAL const rb_float4 *v, int b)
{
    return b >= 0 ? rb_xyz(v[b]) : rb_f3(0.0f, 0.0f, 0.0f);
}

// Only dynamic bodies take impulses; kinematic, static and frozen ones are read-only.
RB_FN void rb_store_vel(RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang, RB_GLOBAL const unsigned int *flags, int b,
                        rb_float3 v, rb_float3 w)
{
    if (rb_takes_impulses(flags, b)) {
        lin[b] = rb_f4_from3(v, 0.0f);
        ang[b] = rb_f4_from3(w, 0.0f);
    }
}

// Runs `op` on constraint k against the velocities (va .. wb), in place; updates its points.
RB_FN void rb_contact_apply(int op, const rb_contact_constraint *k, rb_contact_point *pts, rb_solve_settings st,
                            float restitution_threshold, rb_float3 *va, rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    if (op == RB_OP_MEASURE)
        rb_contact_measure(k, pts, *va, *wa, *vb, *wb);
    else if (op == RB_OP_WARM_START)
        rb_contact_warm_start(k, pts, va, wa, vb, wb);
    else if (op == RB_OP_SOLVE)
        rb_contact_solve(k, pts, st, va, wa, vb, wb);
    else if (op == RB_OP_RESTITUTION)
        rb_contact_restitution(k, pts, restitution_threshold, st.slop, va, wa, vb, wb);
    else
        rb_contact_solve_position(k, pts, st, va, wa, vb, wb);
}

// Load, apply, store: one constraint of a Gauss-Seidel sweep against the bodies' velocities
// (lin, ang: the real or, for RB_OP_POSITION, the pseudo velocities).
RB_FN void rb_contact_apply_to_bodies(int op, const rb_contact_constraint *k, rb_contact_point *pts,
                                      rb_solve_settings st, float restitution_threshold,
                                      RB_GLOBAL const unsigned int *flags, RB_GLOBAL rb_float4 *lin,
                                      RB_GLOBAL rb_float4 *ang)
{
    int a = k->body_a, b = k->body_b;
    rb_float3 va = rb_load_vel(lin, a), wa = rb_load_vel(ang, a), vb = rb_load_vel(lin, b), wb = rb_load_vel(ang, b);
    rb_contact_apply(op, k, pts, st, restitution_threshold, &va, &wa, &vb, &wb);
    if (op == RB_OP_MEASURE)
        return;
    rb_store_vel(lin, ang, flags, a, va, wa);
    rb_store_vel(lin, ang, flags, b, vb, wb);
}

// A constraint's impulses back into its manifold: contact read-back and next step's warm start (never a
// non-finite one: rb_contact_manifold_set_impulse).
RB_FN void rb_contact_store_impulses(RB_GLOBAL rb_contact_manifold *m, RB_GLOBAL const rb_contact_point *pts, int count,
                                     float inv_h, float slop)
{
    for (int p = 0; p < count; ++p) {
        rb_contact_point pt = pts[p];
        rb_contact_manifold_set_impulse(m, p, pt.n.impulse, rb_contact_friction_impulse(&pt));
        float impact = rb_contact_impact_speed(&pt, inv_h, slop);
        m->carried_impact[p] = (impact - impact) == 0.0f ? impact : 0.0f; // next step's bounce: finite or none
    }
}

#endif
