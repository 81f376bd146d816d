// Soft contacts for the soft-step solver (Box2D v3's "soft step", Catto, Solver2D 2024; PhysX's TGS is
// the same family). A frame is cut into substeps; in each, the velocities take gravity, the contacts
// are solved once with a soft position bias, the positions move, and a relax pass without bias takes
// out the velocity the bias added, so position correction leaves no energy behind.
//
// The separation is measured anew at every pass from the bodies' current poses (the contact point is
// kept in each body's frame, rb_contact_point.local_a/b), so the substeps see the gap close and the
// penetration go, while the Jacobians stay those of the start of the frame.
//
// Soft constraint (Catto, "Soft constraints", GDC 2011): a contact acts as a spring-damper of
// frequency `hertz` and damping ratio `zeta`, written per substep h as
//     omega = 2 pi hertz, a1 = 2 zeta + h omega, a2 = h omega a1, a3 = 1 / (1 + a2)
//     bias_rate = omega / a1, mass_scale = a2 a3, impulse_scale = a3
// and lambda = -m_eff mass_scale (vn + bias_rate s) - impulse_scale lambda_acc. The last term makes the
// contact a spring of stiffness m_eff omega^2: at rest it sinks by F / (m_eff omega^2), a stack sinks
// more at every level down. rubble keeps the first two (the damped bias and the under-relaxation) and
// drops the leak by default (rb_world_def.contact_softness 0): a resting contact then has no steady
// penetration, and stacks and plates rest at their height; docs/solver.md measures both.
#ifndef RB_KERNELS_CONTACT_SOFT_H
#define RB_KERNELS_CONTACT_SOFT_H

#include "contact_solver.h"

typedef struct rb_softness {
    float bias_rate;     // 1/s: the fraction of the penetration turned into separating speed
    float mass_scale;    // under-relaxation of the normal row
    float impulse_scale; // leak of the accumulated impulse (the spring)
} rb_softness;

RB_FN rb_softness rb_make_softness(float hertz, float zeta, float h, float leak)
{
    rb_softness s;
    if (hertz <= 0.0f) {
        s.bias_rate = 0.0f;
        s.mass_scale = 1.0f;
        s.impulse_scale = 0.0f;
        return s;
    }
    float omega = 2.0f * RB_PI * hertz;
    float a1 = 2.0f * zeta + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    s.bias_rate = omega / a1;
    s.mass_scale = a2 * a3;
    s.impulse_scale = leak * a3;
    return s;
}

// m/s: a sweep over a manifold's points that changes no normal speed by more than this ends its sweeps
#define RB_SOFT_CONVERGED 1e-5f

typedef struct rb_soft_settings {
    float inv_h;              // 1 / substep
    float max_push;           // m/s, cap on the speed that removes penetration
    float slop;               // m, penetration the bias leaves alone
    rb_softness soft;         // between two moving bodies
    rb_softness soft_static;  // against a static or kinematic body (stiffer: only one body gives)
    int sweeps;               // sweeps over a manifold's normal rows per pass
    int shock_sweeps;         // the same in the shock pass
} rb_soft_settings;

// The current gap at a point (< 0: penetration) from the bodies' poses now; at the start of the frame
// it is the narrow phase's separation.
RB_FN float rb_contact_separation(const rb_contact_constraint *c, const rb_contact_point *p, rb_float3 pa, rb_float4 qa,
                                  rb_float3 pb, rb_float4 qb)
{
    rb_float3 xa = c->body_a >= 0 ? rb_add(pa, rb_rotate(qa, p->local_a)) : p->local_a;
    rb_float3 xb = c->body_b >= 0 ? rb_add(pb, rb_rotate(qb, p->local_b)) : p->local_b;
    return p->separation + rb_dot(rb_sub(xb, xa), c->normal);
}

// One pass over a manifold: normal rows with the soft bias (use_bias) or without it (relax), then
// friction. A point still a gap away lets the bodies close at most the gap in this substep.
RB_FN void rb_contact_solve_soft(const rb_contact_constraint *c, rb_contact_point *pts, const rb_soft_settings *st,
                                 int use_bias, rb_float3 pa, rb_float4 qa, rb_float3 pb, rb_float4 qb, rb_float3 *va,
                                 rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    float ima = c->inv_mass_a, imb = c->inv_mass_b;
    rb_softness soft = (ima == 0.0f || imb == 0.0f) ? st->soft_static : st->soft;
    // the poses do not change during a pass: bias terms once per point
    float bias_of[RB_MAX_MANIFOLD_POINTS], scale_of[RB_MAX_MANIFOLD_POINTS], leak_of[RB_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < c->count; ++i) {
        float s = rb_contact_separation(c, &pts[i], pa, qa, pb, qb);
        bias_of[i] = 0.0f;
        scale_of[i] = 1.0f;
        leak_of[i] = 0.0f;
        if (s > 0.0f) {
            bias_of[i] = s * st->inv_h; // speculative
        } else if (use_bias) {
            bias_of[i] = rb_maxf(soft.bias_rate * rb_minf(s + st->slop, 0.0f), -st->max_push);
            scale_of[i] = soft.mass_scale;
            leak_of[i] = soft.impulse_scale;
        }
    }
    // sweeps until the points agree (a sweep changes no normal speed by more than RB_SOFT_CONVERGED)
    for (int sweep = 0; sweep < st->sweeps; ++sweep) {
        float change = 0.0f;
        for (int i = 0; i < c->count; ++i) {
            rb_contact_point *p = &pts[i];
            float bias = bias_of[i], mass_scale = scale_of[i], impulse_scale = leak_of[i];
            float vn = rb_contact_row_velocity(&p->n, c->normal, *va, *wa, *vb, *wb);
            float lambda = -p->n.mass * mass_scale * (vn + bias) - impulse_scale * p->n.impulse;
            float total = rb_maxf(p->n.impulse + lambda, 0.0f);
            lambda = total - p->n.impulse;
            p->n.impulse = total;
            p->max_normal_impulse = rb_maxf(p->max_normal_impulse, total);
            rb_contact_row_apply(&p->n, c->normal, lambda, ima, imb, va, wa, vb, wb);
            change = rb_maxf(change, p->n.mass > 0.0f ? rb_fabsf(lambda) / p->n.mass : 0.0f);
        }
        if (change < RB_SOFT_CONVERGED)
            break;
    }
    rb_contact_solve_friction(c, pts, va, wa, vb, wb);
}

// Shock propagation (Guendelman et al. 2003; pe's levels, Schornbaum 2010 §3.6): the same pass with the
// supporting body held fixed, so the supported body takes the whole correction and passes none down.
// Run level by level from the ground up, it leaves every body of a stack moving with what carries it,
// whatever the mass ratio. `fixed_a`: A is the supporting body (else B). The effective masses are
// those of the moving body alone. Normal rows only: with friction the carried body would follow every
// wobble of the surface under it, and a tall stack whips (20 boxes fall within 10 s); friction is the
// regular passes' work.
RB_FN void rb_contact_solve_shock(const rb_contact_constraint *c, const rb_contact_point *pts, const float *accumulated,
                                  const rb_soft_settings *st, int use_bias, int fixed_a, rb_float3 pa, rb_float4 qa,
                                  rb_float3 pb, rb_float4 qb, rb_float3 *va, rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    // The impulses of this pass act on one body only, so they are not the contact's: they stay out of
    // the accumulated impulses (the warm start would push them into the supporting body). Each row's
    // total with the accumulated impulse (`accumulated`, one per point: the points' n.impulse, or where
    // the CPU's wide solver keeps them) keeps the contact's limits.
    int side_b = fixed_a;
    float im = side_b ? c->inv_mass_b : c->inv_mass_a;
    rb_softness soft = st->soft_static;
    float extra[RB_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < c->count; ++i)
        extra[i] = 0.0f;
    // a few sweeps over the points: one body against a fixed one converges fast, and one sweep leaves a
    // thin plate rocking on its corners (each corner alone mostly turns it)
    float bias_of[RB_MAX_MANIFOLD_POINTS], mass_of[RB_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < c->count; ++i) {
        float s = rb_contact_separation(c, &pts[i], pa, qa, pb, qb);
        float mass_scale = 1.0f;
        bias_of[i] = 0.0f;
        if (s > 0.0f) {
            bias_of[i] = s * st->inv_h;
        } else if (use_bias) {
            bias_of[i] = rb_maxf(soft.bias_rate * rb_minf(s + st->slop, 0.0f), -st->max_push);
            mass_scale = soft.mass_scale;
        }
        // a closing point whose bodies slid past each other has no row (rb_contact_retire_point)
        mass_of[i] = pts[i].n.mass > 0.0f ? rb_row_mass_one_side(&pts[i].n, im, side_b) * mass_scale : 0.0f;
    }
    for (int sweep = 0; sweep < st->shock_sweeps; ++sweep) {
        float change = 0.0f;
        for (int i = 0; i < c->count; ++i) {
            const rb_contact_point *p = &pts[i];
            float vn = rb_contact_row_velocity(&p->n, c->normal, *va, *wa, *vb, *wb);
            float lambda = -mass_of[i] * (vn + bias_of[i]);
            lambda = rb_maxf(lambda, -(accumulated[i] + extra[i]));
            extra[i] += lambda;
            rb_contact_row_apply_one_side(&p->n, c->normal, lambda, im, side_b, va, wa, vb, wb);
            change = rb_maxf(change, mass_of[i] > 0.0f ? rb_fabsf(lambda) / mass_of[i] : 0.0f);
        }
        if (change < RB_SOFT_CONVERGED)
            break;
    }
}

// Impacts resolved one at a time, largest closing speed first (pe, Schornbaum 2010 §3.3), before the soft
// substeps: a touching point closing faster than the restitution threshold gets the impulse that
// sends the bodies apart at e times its closing speed. Resolved in that order, an impact travels
// through a row of touching balls as it does in Newton's cradle; solved together (the substeps), it
// would spread over the row. Normal row only; the impulse is not the contact's resting impulse, so it
// stays out of the warm start. Returns the closing speed of point i (> 0 closing).
RB_FN float rb_contact_closing_speed(const rb_contact_constraint *c, const rb_contact_point *p, rb_float3 va,
                                     rb_float3 wa, rb_float3 vb, rb_float3 wb)
{
    return -rb_contact_row_velocity(&p->n, c->normal, va, wa, vb, wb);
}

// The launch keeps the discrete bounce's height (as rb_contact_restitution_launch): the first substep's
// forces have already added `gain` = a h to the closing speed, and the bodies move before they take the
// next substep's, so the separating speed is e c - (1 + e) a h / 2 (c: the closing speed now).
RB_FN void rb_contact_resolve_impact(const rb_contact_constraint *c, const rb_contact_point *p, float closing,
                                     rb_float3 *va, rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    float e = c->restitution;
    float gain = rb_maxf(p->relative_velocity - p->velocity_after_forces, 0.0f);
    float separating = rb_maxf(e * closing - (1.0f + e) * 0.5f * gain, 0.0f);
    float lambda = p->n.mass * (closing + separating);
    rb_contact_row_apply(&p->n, c->normal, lambda, c->inv_mass_a, c->inv_mass_b, va, wa, vb, wb);
}

// Rebuilds point i's rows at the bodies' current poses (A, B with their current orientation and world
// inverse inertia), keeping its impulses. The rows of a frame are those of its start, so between two
// bodies that move relative to each other during the frame (a speculative contact closing) the two
// lever arms no longer meet at one point, and the contact's impulses would create angular momentum;
// rebuilt on the midpoint of the current anchors, the impulses on A and B act on one line again.
RB_FN void rb_contact_refresh_point(const rb_contact_constraint *c, rb_contact_point *p, const rb_solver_body *A,
                                    const rb_solver_body *B)
{
    rb_float3 xa = A->is_static ? p->local_a : rb_add(A->p, rb_rotate(A->q, p->local_a));
    rb_float3 xb = B->is_static ? p->local_b : rb_add(B->p, rb_rotate(B->q, p->local_b));
    rb_float3 x = rb_scale(rb_add(xa, xb), 0.5f);
    rb_float3 ra = rb_sub(x, A->p), rb = rb_sub(x, B->p);
    p->n = rb_contact_make_row(ra, rb, c->normal, A->inv_mass, B->inv_mass, A->inv_inertia, B->inv_inertia, p->n.impulse);
    p->t1 = rb_contact_make_row(ra, rb, p->tangent1, A->inv_mass, B->inv_mass, A->inv_inertia, B->inv_inertia,
                                p->t1.impulse);
    p->t2 = rb_contact_make_row(ra, rb, p->tangent2, A->inv_mass, B->inv_mass, A->inv_inertia, B->inv_inertia,
                                p->t2.impulse);
}

// Whether two bodies can touch anywhere along the normal n: their shadows along n (each the disc of the
// body's bounding radius about its centre of mass, seen along n) overlap. d: B's centre minus A's.
RB_FN int rb_contact_shadows_overlap(rb_float3 d, rb_float3 n, float radius_a, float radius_b)
{
    rb_float3 across = rb_mad(d, -rb_dot(d, n), n);
    float reach = radius_a + radius_b;
    return rb_dot(across, across) <= reach * reach;
}

// A closing point (a gap wider than the slop at the start of the frame, between two moving bodies: the
// points whose rows the relax passes rebuild, rb_contact_refresh_point) once its bodies' shadows along
// the frame's normal no longer overlap (rb_contact_shadows_overlap: they have slid past each other and
// cannot touch along it any more) is no contact: it takes no impulse for the rest of the frame (rows and
// impulses zero; the caller clears a one-point contact's torsional impulse). The shadows of two bodies
// that touch overlap in every direction, so no touch is ever dropped; at the start of the frame the
// bodies face each other across the point's gap, so their shadows overlap then.
//
// With the frame's look-ahead a speculative point between two fast bodies lies up to metres from them,
// midway across the gap, and once they have slid past each other that midpoint lies far outside both.
// Rebuilt there, its lever arms were many body sizes long. Three 5 cm bodies at 200-490 m/s that never
// touch, zero g: a sphere and a capsule 0.6 m apart, closing at 280 m/s along the frame's normal while
// passing each other at 470 m/s, were stopped in the first substep (26 N s at an effective mass of
// 0.22 kg); rebuilt 2 m further on, the row's lever arms were 1.06 and 0.94 m and its effective mass
// 0.00024 kg, and the next warm start gave the 26 N s back through it, 110 km/s along the row: 13 times
// the scene's kinetic energy, of which the solve took back only part (the bodies' other rows, rebuilt
// alike, shared it out). The frame ended with 60% more energy than it began with, and a crowd of 240
// such bodies went non-finite within four frames.
RB_FN void rb_contact_retire_point(rb_contact_point *p)
{
    rb_float3 zero = rb_f3(0.0f, 0.0f, 0.0f);
    rb_contact_row none;
    none.ra_x = none.rb_x = none.ia_x = none.ib_x = zero;
    none.mass = 0.0f;
    none.impulse = 0.0f;
    p->n = p->t1 = p->t2 = none;
}

#endif
