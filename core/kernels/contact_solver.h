// Contact constraints for the impulse solvers: preparation, warm start, one projected Gauss-Seidel
// pass over a manifold, restitution, and the split-impulse position pass. One manifold is one
// constraint block of up to four points, each with a normal row and two friction rows (Coulomb cone,
// clamped as a disc).
//
// Friction directions (as Bullet does): a point that slips gets its first tangent along the slip
// velocity, chosen once per step when the constraint is prepared, the second across it; a point that
// does not slip gets the fixed basis of rb_contact_basis. Kinetic friction then acts exactly against
// the slip (mu N, with no share lost to the coupling of the two rows), and the directions do not change
// during the iterations, which would shake a resting pile. The accumulated friction impulse is kept as
// a world vector between steps, so a new basis loses no warm start.
//
// Penetration is removed with split impulses (Catto, GDC 2006; Bullet's splitImpulse): a second PGS
// pass works on pseudo velocities that move the positions in this substep and are then discarded, so
// position correction never adds kinetic energy (a Baumgarte term in the real velocities does, and
// makes tall stacks jump).
//
// Conventions: the normal points from A to B; separation < 0 is penetration; a positive impulse
// pushes B along +n and A along -n. Velocities are passed as private copies, so a backend may keep
// them in whatever layout it likes.
#ifndef RB_KERNELS_CONTACT_SOLVER_H
#define RB_KERNELS_CONTACT_SOLVER_H

#include "contact_frame.h"
#include "manifold.h"

// One Jacobian row J = [-d, -(ra x d), d, (rb x d)] with its effective mass and accumulated impulse.
typedef struct rb_contact_row {
    rb_float3 ra_x;  // ra x d
    rb_float3 rb_x;  // rb x d
    rb_float3 ia_x;  // Ia^-1 (ra x d), world frame
    rb_float3 ib_x;  // Ib^-1 (rb x d)
    float mass;      // 1 / (J M^-1 J^T)
    float impulse;   // accumulated over the step, N s
} rb_contact_row;

typedef struct rb_contact_point {
    rb_contact_row n, t1, t2;
    rb_float3 tangent1, tangent2; // friction directions of this point for this step
    float separation;          // at detection
    float relative_velocity;   // normal relative velocity before the step (< 0 approaching), for restitution
    float velocity_after_forces; // the same after gravity and forces (rb_contact_measure)
    float carried_impact;      // impact speed (> 0) carried from last step's speculative stop, or 0
    float max_normal_impulse;  // largest normal impulse seen this step (0 = never touched)
    float position_impulse;    // accumulated split impulse of this substep
    float friction;            // friction coefficient of this point for this step: static while it sticks
    float twist_impulse;       // torsional friction about the normal, N m s (on B), if the constraint has it
    float twist_mass;          // its effective mass, 1 / (n . (Ia^-1 + Ib^-1) n)
    rb_float3 local_a, local_b; // the point in each body's frame (a static body: world), for the current
                               // separation of the soft solver (rb_contact_separation)
} rb_contact_point;

// The points of a constraint live in a separate array (`first_point`, `count`), so a one-point sphere
// contact does not drag three unused points through the cache on every sweep.
typedef struct rb_contact_constraint {
    int body_a, body_b;        // body slots; -1 = static (no velocity)
    float inv_mass_a, inv_mass_b;
    rb_float3 normal;
    float friction, restitution; // kinetic friction
    float static_friction;     // >= friction: the limit of a point that does not slip
    int count;
    int first_point;
    int penetrating;           // some point is deeper than the slop: the position pass has work
    // Torsional friction of a one-point contact of a round shape (rb_contact_solve_friction): the
    // torque about the normal is bounded by mu N twist_arm; 0: no such row. Its impulse and effective
    // mass are kept in the point (twist_impulse, twist_mass).
    float twist_arm;
    rb_float3 twist_ia, twist_ib; // Ia^-1 n, Ib^-1 n, world frame
} rb_contact_constraint;

// What a contact point keeps from the last step (all zero for a new point).
typedef struct rb_contact_warm {
    rb_float3 friction;        // accumulated friction impulse, world frame, N s
    float normal;              // accumulated normal impulse, N s
    float carried_impact;      // impact speed of a speculative stop, for this step's bounce
} rb_contact_warm;

// Restitution's sweeps over a manifold's bouncing points, at most, and the change of a point's normal
// speed (m/s) below which they have converged.
#define RB_RESTITUTION_SWEEPS 16
#define RB_RESTITUTION_CONVERGED 1e-4f

// Slip speed (m/s) above which a point's friction directions follow its slip velocity.
#define RB_SLIP_SPEED 1e-3f

// A body as the solver prepares a constraint: centre of mass, orientation, velocities, inverse mass and
// world inverse inertia (zero for static and kinematic bodies), and whether it has no velocity slot
// (static: its anchor is kept in world space).
typedef struct rb_solver_body {
    rb_float3 p, v, w;
    rb_float4 q;
    float inv_mass;
    rb_mat3 inv_inertia;
    int is_static;
} rb_solver_body;

// The combined material of a manifold.
typedef struct rb_contact_material {
    float friction;          // kinetic
    float static_friction;   // >= friction
    float restitution;
} rb_contact_material;

// What the solve passes need besides the constraint.
typedef struct rb_solve_settings {
    float inv_h;          // 1 / substep
    float bias_factor;    // fraction of the penetration removed per substep by the position pass
    float slop;           // penetration left alone, m
    float max_push;       // cap on the pseudo velocity that removes penetration, m/s
} rb_solve_settings;

RB_FN rb_contact_row rb_contact_make_row(rb_float3 ra, rb_float3 rb, rb_float3 d, float ima, float imb, rb_mat3 iia,
                                         rb_mat3 iib, float impulse)
{
    rb_contact_row r;
    r.ra_x = rb_cross(ra, d);
    r.rb_x = rb_cross(rb, d);
    r.ia_x = rb_mat3_mulv(iia, r.ra_x);
    r.ib_x = rb_mat3_mulv(iib, r.rb_x);
    float k = ima + imb + rb_dot(r.ra_x, r.ia_x) + rb_dot(r.rb_x, r.ib_x);
    r.mass = k > 0.0f ? 1.0f / k : 0.0f;
    r.impulse = impulse;
    return r;
}

// Relative velocity of B with respect to A along the row's direction d.
RB_FN float rb_contact_row_velocity(const rb_contact_row *r, rb_float3 d, rb_float3 va, rb_float3 wa, rb_float3 vb,
                                    rb_float3 wb)
{
    return rb_dot(rb_sub(vb, va), d) + rb_dot(wb, r->rb_x) - rb_dot(wa, r->ra_x);
}

RB_FN void rb_contact_row_apply(const rb_contact_row *r, rb_float3 d, float lambda, float ima, float imb, rb_float3 *va,
                                rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    *va = rb_mad(*va, -ima * lambda, d);
    *wa = rb_mad(*wa, -lambda, r->ia_x);
    *vb = rb_mad(*vb, imb * lambda, d);
    *wb = rb_mad(*wb, lambda, r->ib_x);
}

// The same for one body only (the other held fixed): side_b 1 moves B, 0 moves A.
RB_FN void rb_contact_row_apply_one_side(const rb_contact_row *r, rb_float3 d, float lambda, float im, int side_b,
                                         rb_float3 *va, rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    if (side_b) {
        *vb = rb_mad(*vb, im * lambda, d);
        *wb = rb_mad(*wb, lambda, r->ib_x);
    } else {
        *va = rb_mad(*va, -im * lambda, d);
        *wa = rb_mad(*wa, -lambda, r->ia_x);
    }
}

// The effective mass of a row when only one body moves (side_b: B), the other held fixed.
RB_FN float rb_row_mass_one_side(const rb_contact_row *r, float im, int side_b)
{
    float k = im + (side_b ? rb_dot(r->rb_x, r->ib_x) : rb_dot(r->ra_x, r->ia_x));
    return k > 0.0f ? 1.0f / k : 0.0f;
}

// Builds the constraint of one manifold from what its points kept from last step (`warm`).
//
// Static friction: a point that does not slip at the start of the step (slower than RB_SLIP_SPEED) is
// held by the static coefficient, a slipping one by the kinetic; the choice is made once per step, so
// a body that breaks loose slides on with mu_k from the next step.
RB_FN void rb_contact_prepare(rb_contact_constraint *c, rb_contact_point *pts, const rb_manifold *m,
                              rb_contact_material mat, float slop, const rb_contact_warm *warm,
                              const rb_solver_body *A, const rb_solver_body *B)
{
    c->inv_mass_a = A->inv_mass;
    c->inv_mass_b = B->inv_mass;
    c->normal = m->normal;
    c->friction = mat.friction;
    c->static_friction = rb_maxf(mat.static_friction, mat.friction);
    c->restitution = mat.restitution;
    c->count = m->count;
    c->penetrating = 0;
    rb_float3 n = m->normal, g1, g2;
    rb_contact_basis(n, &g1, &g2);
    for (int i = 0; i < m->count; ++i) {
        rb_contact_point *p = &pts[i];
        rb_float3 x = m->points[i].point;
        // Against a body that takes no impulse the rows of a speculative point (a gap wider than the
        // slop) act on the moving body's surface, where it will touch, not midway across the gap:
        // there the lever arm of a ball's friction was r + s/2, and a ball that struck the ground at
        // a slant left it 2.5% fast, already rolling. Resting points keep the midpoint.
        float half_gap = m->points[i].separation > slop ? 0.5f * m->points[i].separation : 0.0f;
        if (A->inv_mass == 0.0f && B->inv_mass != 0.0f)
            x = rb_mad(x, half_gap, n);
        else if (B->inv_mass == 0.0f && A->inv_mass != 0.0f)
            x = rb_mad(x, -half_gap, n);
        rb_float3 ra = rb_sub(x, A->p); // from each centre of mass to the point
        rb_float3 rb = rb_sub(x, B->p);
        // slip velocity of B relative to A at the point, in the tangent plane
        rb_float3 dv = rb_sub(rb_add(B->v, rb_cross(B->w, rb)), rb_add(A->v, rb_cross(A->w, ra)));
        rb_float3 slip = rb_mad(dv, -rb_dot(dv, n), n);
        float slip_len = rb_len(slip);
        if (slip_len > RB_SLIP_SPEED) {
            p->tangent1 = rb_scale(slip, 1.0f / slip_len);
            p->tangent2 = rb_cross(n, p->tangent1);
            p->friction = c->friction;
        } else {
            p->tangent1 = g1;
            p->tangent2 = g2;
            p->friction = c->static_friction;
        }
        p->n = rb_contact_make_row(ra, rb, n, A->inv_mass, B->inv_mass, A->inv_inertia, B->inv_inertia, warm[i].normal);
        p->t1 = rb_contact_make_row(ra, rb, p->tangent1, A->inv_mass, B->inv_mass, A->inv_inertia, B->inv_inertia,
                                    rb_dot(warm[i].friction, p->tangent1));
        p->t2 = rb_contact_make_row(ra, rb, p->tangent2, A->inv_mass, B->inv_mass, A->inv_inertia, B->inv_inertia,
                                    rb_dot(warm[i].friction, p->tangent2));
        p->separation = m->points[i].separation;
        c->penetrating |= p->separation < -slop;
        p->position_impulse = 0.0f;
        p->relative_velocity = rb_contact_row_velocity(&p->n, n, A->v, A->w, B->v, B->w);
        p->velocity_after_forces = p->relative_velocity;
        p->carried_impact = warm[i].carried_impact;
        p->max_normal_impulse = 0.0f;
        p->local_a = A->is_static ? x : rb_inv_rotate(A->q, ra);
        p->local_b = B->is_static ? x : rb_inv_rotate(B->q, rb);
    }
    // A single point cannot resist a spin about the normal, yet a ball on the floor or in a pile that
    // spins about the vertical would never stop (nor sleep). A round shape pressed `slop` into another
    // touches it on a disc of radius sqrt(2 R slop) (R the contact's radius of curvature); under
    // uniform pressure friction acts at 2/3 of that radius. Manifolds of two or more points resist the
    // spin through their points' friction already. Between two moving balls too: without it a ball
    // spun on top of three others sets them turning like gears, for ever, and the four roll apart.
    c->twist_arm = 0.0f;
    pts[0].twist_mass = 0.0f;
    pts[0].twist_impulse = 0.0f;
    c->twist_ia = rb_mat3_mulv(A->inv_inertia, n);
    c->twist_ib = rb_mat3_mulv(B->inv_inertia, n);
    float kt = rb_dot(n, rb_add(c->twist_ia, c->twist_ib));
    if (m->count == 1 && m->round_radius > 0.0f && kt > 0.0f) {
        c->twist_arm = (2.0f / 3.0f) * rb_sqrtf(2.0f * m->round_radius * rb_maxf(slop, 1e-4f));
        pts[0].twist_mass = 1.0f / kt;
    }
}

// The torsional friction row of a one-point round contact (twist_arm > 0): the relative spin about the
// normal is stopped while that takes at most mu N twist_arm, with the point's coefficient (static
// while it sticks) and its accumulated normal impulse.
RB_FN void rb_contact_solve_twist(const rb_contact_constraint *c, rb_contact_point *p, rb_float3 *wa, rb_float3 *wb)
{
    float spin = rb_dot(rb_sub(*wb, *wa), c->normal);
    float limit = p->friction * rb_maxf(p->n.impulse, 0.0f) * c->twist_arm;
    float next = rb_minf(rb_maxf(p->twist_impulse - p->twist_mass * spin, -limit), limit);
    float d = next - p->twist_impulse;
    p->twist_impulse = next;
    *wa = rb_sub(*wa, rb_scale(c->twist_ia, d));
    *wb = rb_add(*wb, rb_scale(c->twist_ib, d));
}

// The friction impulse of a point as a world vector (for the next step's warm start and read-back).
RB_FN rb_float3 rb_contact_friction_impulse(const rb_contact_point *p)
{
    return rb_add(rb_scale(p->tangent1, p->t1.impulse), rb_scale(p->tangent2, p->t2.impulse));
}

// Records each point's normal relative velocity after gravity and forces (before any impulse), from
// which the impact speed of a speculative stop is estimated (rb_contact_impact_speed).
RB_FN void rb_contact_measure(const rb_contact_constraint *c, rb_contact_point *pts, rb_float3 va, rb_float3 wa,
                              rb_float3 vb, rb_float3 wb)
{
    for (int i = 0; i < c->count; ++i)
        pts[i].velocity_after_forces = rb_contact_row_velocity(&pts[i].n, c->normal, va, wa, vb, wb);
}

// Applies last step's impulses (warm start), so a resting stack starts from its converged state.
RB_FN void rb_contact_warm_start(const rb_contact_constraint *c, const rb_contact_point *pts, rb_float3 *va,
                                 rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    for (int i = 0; i < c->count; ++i) {
        const rb_contact_point *p = &pts[i];
        rb_contact_row_apply(&p->n, c->normal, p->n.impulse, c->inv_mass_a, c->inv_mass_b, va, wa, vb, wb);
        rb_contact_row_apply(&p->t1, p->tangent1, p->t1.impulse, c->inv_mass_a, c->inv_mass_b, va, wa, vb, wb);
        rb_contact_row_apply(&p->t2, p->tangent2, p->t2.impulse, c->inv_mass_a, c->inv_mass_b, va, wa, vb, wb);
    }
    if (c->twist_arm > 0.0f) {
        *wa = rb_sub(*wa, rb_scale(c->twist_ia, pts[0].twist_impulse));
        *wb = rb_add(*wb, rb_scale(c->twist_ib, pts[0].twist_impulse));
    }
}

// The friction rows of every point, after the normal rows: the Coulomb cone |(f1, f2)| <= mu N with the
// point's coefficient (static while it sticks) and its accumulated normal impulse.
RB_FN void rb_contact_solve_friction(const rb_contact_constraint *c, rb_contact_point *pts, rb_float3 *va,
                                     rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    float ima = c->inv_mass_a, imb = c->inv_mass_b;
    for (int i = 0; i < c->count; ++i) {
        rb_contact_point *p = &pts[i];
        float limit = p->friction * p->n.impulse;
        float v1 = rb_contact_row_velocity(&p->t1, p->tangent1, *va, *wa, *vb, *wb);
        float v2 = rb_contact_row_velocity(&p->t2, p->tangent2, *va, *wa, *vb, *wb);
        float new1 = p->t1.impulse - p->t1.mass * v1;
        float new2 = p->t2.impulse - p->t2.mass * v2;
        float len2 = new1 * new1 + new2 * new2;
        if (len2 > limit * limit) {
            float scale = limit / rb_sqrtf(len2);
            new1 *= scale;
            new2 *= scale;
        }
        float d1 = new1 - p->t1.impulse, d2 = new2 - p->t2.impulse;
        p->t1.impulse = new1;
        p->t2.impulse = new2;
        rb_contact_row_apply(&p->t1, p->tangent1, d1, ima, imb, va, wa, vb, wb);
        rb_contact_row_apply(&p->t2, p->tangent2, d2, ima, imb, va, wa, vb, wb);
    }
    if (c->twist_arm > 0.0f)
        rb_contact_solve_twist(c, &pts[0], wa, wb);
}

// One projected Gauss-Seidel pass over the block's velocities: normal rows, then friction.
// A speculative point (separation > 0) lets the bodies approach by at most the gap in one substep;
// a touching or penetrating point stops the approach. Penetration itself is left to the position pass.
RB_FN void rb_contact_solve(const rb_contact_constraint *c, rb_contact_point *pts, rb_solve_settings st, rb_float3 *va,
                            rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    float ima = c->inv_mass_a, imb = c->inv_mass_b;
    for (int i = 0; i < c->count; ++i) {
        rb_contact_point *p = &pts[i];
        float bias = p->separation > 0.0f ? p->separation * st.inv_h : 0.0f;
        float vn = rb_contact_row_velocity(&p->n, c->normal, *va, *wa, *vb, *wb);
        float lambda = -p->n.mass * (vn + bias);
        float total = rb_maxf(p->n.impulse + lambda, 0.0f);
        lambda = total - p->n.impulse;
        p->n.impulse = total;
        p->max_normal_impulse = rb_maxf(p->max_normal_impulse, total);
        rb_contact_row_apply(&p->n, c->normal, lambda, ima, imb, va, wa, vb, wb);
    }
    rb_contact_solve_friction(c, pts, va, wa, vb, wb);
}

// One pass of the split-impulse position correction on pseudo velocities (pva, pwa, pvb, pwb): drives
// each penetrating point's normal pseudo velocity to bias_factor * (penetration - slop) / h.
RB_FN void rb_contact_solve_position(const rb_contact_constraint *c, rb_contact_point *pts, rb_solve_settings st,
                                     rb_float3 *pva, rb_float3 *pwa, rb_float3 *pvb, rb_float3 *pwb)
{
    if (!c->penetrating)
        return;
    for (int i = 0; i < c->count; ++i) {
        rb_contact_point *p = &pts[i];
        float error = p->separation + st.slop; // < 0: penetrating beyond the slop
        if (error >= 0.0f)
            continue;
        float target = rb_minf(-st.bias_factor * st.inv_h * error, st.max_push);
        float vn = rb_contact_row_velocity(&p->n, c->normal, *pva, *pwa, *pvb, *pwb);
        float lambda = p->n.mass * (target - vn);
        float total = rb_maxf(p->position_impulse + lambda, 0.0f);
        lambda = total - p->position_impulse;
        p->position_impulse = total;
        rb_contact_row_apply(&p->n, c->normal, lambda, c->inv_mass_a, c->inv_mass_b, pva, pwa, pvb, pwb);
    }
}

// Shock propagation for the rigid solvers (batched, split; Guendelman et al. 2003, pe's levels, Schornbaum 2010
// §3.6): after the iterations, level by level from the ground up, each carried body is solved against
// its supports held fixed, so it takes the whole correction and passes none down, and a heavy body on a
// light one stays put whatever the mass ratio. `fixed_a`: A is the supporting body (else B).
// `position`: the split-impulse pass on pseudo velocities (penetration beyond the slop removed at
// bias_factor per step), normal rows only; else the velocity pass (no approach, a speculative point
// closes at most its gap) with friction against a support that sticks, within the cone of the point's
// whole normal impulse: without it a heavy box walks off two light ones (1000:1) as the regular
// iterations cannot carry its friction. A support that slips faster than RB_SHOCK_STICK_SPEED at the
// first sweep keeps its friction out of the pass: a body made to follow supports that move apart
// kept a settled heap of 4096 boxes bubbling (40-100 boxes above 5 cm/s, against 2-10 without).
// The impulses act on one body, so they stay out of the accumulated impulses (`acc` holds them, zero
// before the first sweep), and each row's total with them keeps the contact's limits. One sweep per
// call: the caller sweeps all supports of a body in turn, so the body settles on all of them together
// rather than on the last one.
#define RB_SHOCK_STICK_SPEED 0.05f

typedef struct rb_shock_accum {
    float n[RB_MAX_MANIFOLD_POINTS], t1[RB_MAX_MANIFOLD_POINTS], t2[RB_MAX_MANIFOLD_POINTS];
    int sweeps; // sweeps done (0: the first)
    int stick;  // the contact did not slip at the first sweep: friction takes part
} rb_shock_accum;

RB_FN float rb_contact_solve_shock_rigid(const rb_contact_constraint *c, const rb_contact_point *pts, rb_solve_settings st,
                                        int position, int fixed_a, rb_shock_accum *acc, rb_float3 *va, rb_float3 *wa,
                                        rb_float3 *vb, rb_float3 *wb)
{
    int side_b = fixed_a;
    float im = side_b ? c->inv_mass_b : c->inv_mass_a;
    float change = 0.0f; // largest velocity change of a row, m/s
    if (acc->sweeps++ == 0) {
        float slip = 0.0f;
        for (int i = 0; i < c->count; ++i) {
            const rb_contact_point *p = &pts[i];
            float v1 = rb_contact_row_velocity(&p->t1, p->tangent1, *va, *wa, *vb, *wb);
            float v2 = rb_contact_row_velocity(&p->t2, p->tangent2, *va, *wa, *vb, *wb);
            slip = rb_maxf(slip, v1 * v1 + v2 * v2);
        }
        acc->stick = slip < RB_SHOCK_STICK_SPEED * RB_SHOCK_STICK_SPEED;
    }
    for (int i = 0; i < c->count; ++i) {
        const rb_contact_point *p = &pts[i];
        float target;
        if (position) {
            float error = p->separation + st.slop;
            target = error < 0.0f ? rb_minf(-st.bias_factor * st.inv_h * error, st.max_push) : 0.0f;
        } else {
            target = p->separation > 0.0f ? -p->separation * st.inv_h : 0.0f;
        }
        float vn = rb_contact_row_velocity(&p->n, c->normal, *va, *wa, *vb, *wb);
        float mass = rb_row_mass_one_side(&p->n, im, side_b);
        float lambda = mass * (target - vn);
        lambda = rb_maxf(lambda, -((position ? p->position_impulse : p->n.impulse) + acc->n[i]));
        acc->n[i] += lambda;
        change = rb_maxf(change, mass > 0.0f ? rb_fabsf(lambda) / mass : 0.0f);
        rb_contact_row_apply_one_side(&p->n, c->normal, lambda, im, side_b, va, wa, vb, wb);
    }
    if (position || !acc->stick)
        return change;
    // The whole friction impulse (the contact's and this pass's) keeps the cone of the whole normal
    // impulse. Only this pass's part within the cone of the normal impulse it added was tried: the
    // carried body then follows less of the wobble of the body under it, but the rows' rocking
    // corrections are left to slip, and the 20-cube stack's top walked 1 m in 10 s (docs/solver.md).
    for (int i = 0; i < c->count; ++i) {
        const rb_contact_point *p = &pts[i];
        float base1 = p->t1.impulse, base2 = p->t2.impulse;
        float limit = p->friction * (p->n.impulse + acc->n[i]);
        float v1 = rb_contact_row_velocity(&p->t1, p->tangent1, *va, *wa, *vb, *wb);
        float v2 = rb_contact_row_velocity(&p->t2, p->tangent2, *va, *wa, *vb, *wb);
        float m1 = rb_row_mass_one_side(&p->t1, im, side_b), m2 = rb_row_mass_one_side(&p->t2, im, side_b);
        float t1 = base1 + acc->t1[i] - m1 * v1;
        float t2 = base2 + acc->t2[i] - m2 * v2;
        float len2 = t1 * t1 + t2 * t2;
        if (len2 > limit * limit) {
            float scale = limit / rb_sqrtf(len2);
            t1 *= scale;
            t2 *= scale;
        }
        float d1 = t1 - base1 - acc->t1[i], d2 = t2 - base2 - acc->t2[i];
        acc->t1[i] += d1;
        acc->t2[i] += d2;
        change = rb_maxf(change, rb_maxf(m1 > 0.0f ? rb_fabsf(d1) / m1 : 0.0f, m2 > 0.0f ? rb_fabsf(d2) / m2 : 0.0f));
        rb_contact_row_apply_one_side(&p->t1, p->tangent1, d1, im, side_b, va, wa, vb, wb);
        rb_contact_row_apply_one_side(&p->t2, p->tangent2, d2, im, side_b, va, wa, vb, wb);
    }
    return change;
}

// Restitution after the velocity iterations (Box2D v3's scheme, extended for speculative contacts):
// a touching point (separation <= slop) that was approaching faster than `threshold` and took an
// impulse gets a separating speed of restitution * approach speed. A speculative point (still a gap
// away) that stopped an approach bounces nothing yet: the bodies arrive at the surface at the end of
// the step, and the impact speed they would have reached there is carried to the next step
// (rb_contact_impact_speed), where the now touching point bounces with it. Otherwise a fast body,
// whose contact is made up to h v early, would rebound from thin air.
//
// Semi-implicit Euler conserves Q = v^2/2 + a y - a h v/2 in free flight (a: the acceleration towards
// the surface), not the energy: the discrete fall reaches the surface a*h/2 slower than the continuous
// one, and a launch at speed w climbs as if launched at w + a*h/2. The separating speed that gives the
// continuous rebound height e^2 H is therefore w = e c - (1 - e) a h / 2 (c: the approach speed);
// without this term the rebound is e^2 H + (e - e^2) h c / 2, 2.6% high for e = 0.5 from 2 m.
//
// `next_step_first` is the soft solver's order: the launch is set at the end of the frame and the next
// substep takes gravity before it moves, so the climb is that of w - a h/2, and the approach speed,
// read from the discrete fall, is a h/2 below the continuous one: w = e c + (1 + e) a h / 2.
RB_FN void rb_contact_restitution_launch(const rb_contact_constraint *c, rb_contact_point *pts, float threshold,
                                         float slop, int next_step_first, rb_float3 *va, rb_float3 *wa,
                                         rb_float3 *vb, rb_float3 *wb)
{
    float e = c->restitution;
    if (e == 0.0f)
        return;
    float target[RB_MAX_MANIFOLD_POINTS];
    int any = 0;
    for (int i = 0; i < c->count; ++i) {
        const rb_contact_point *p = &pts[i];
        target[i] = 0.0f;
        // A carried impact is an approach that a speculative stop ended. It waits while a gap is still
        // closing (a ball stopped a few mm above the ground) and bounces once the point touches, or
        // once the bodies are parting anyway: two balls that met at a slant slide apart along their
        // curved surfaces after the stop, and the bounce must not wait for a touch that never comes
        // (an elastic glancing hit kept only the stop's half of the impulse). It needs no pressing
        // impulse this step (two balls stopped touching in zero g).
        float approach = p->carried_impact > 0.0f ? p->carried_impact : -p->relative_velocity;
        int parting = p->carried_impact > 0.0f && p->velocity_after_forces >= 0.0f;
        if ((p->separation > slop && !parting) || approach < threshold ||
            (p->max_normal_impulse == 0.0f && p->carried_impact <= 0.0f))
            continue;
        float gain = p->relative_velocity - p->velocity_after_forces; // a h, approach speed added by forces
        target[i] = next_step_first ? e * approach + (1.0f + e) * 0.5f * gain : e * approach - (1.0f - e) * 0.5f * gain;
        any |= target[i] > 0.0f;
    }
    // Sweeps until the points agree: one sweep over the four corners of a box that lands flat leaves
    // the first corner's impulse turning the box (it rebounded at 0.8 of its speed, spinning at 1.5
    // rad/s); the launch speeds of a flat landing are consistent, and the sweeps converge on them.
    for (int sweep = 0; any && sweep < RB_RESTITUTION_SWEEPS; ++sweep) {
        float change = 0.0f;
        for (int i = 0; i < c->count; ++i) {
            rb_contact_point *p = &pts[i];
            if (target[i] <= 0.0f)
                continue;
            float vn = rb_contact_row_velocity(&p->n, c->normal, *va, *wa, *vb, *wb);
            float lambda = -p->n.mass * (vn - target[i]);
            float total = rb_maxf(p->n.impulse + lambda, 0.0f);
            lambda = total - p->n.impulse;
            p->n.impulse = total;
            p->max_normal_impulse = rb_maxf(p->max_normal_impulse, total);
            rb_contact_row_apply(&p->n, c->normal, lambda, c->inv_mass_a, c->inv_mass_b, va, wa, vb, wb);
            change = rb_maxf(change, p->n.mass > 0.0f ? rb_fabsf(lambda) / p->n.mass : 0.0f);
        }
        if (change < RB_RESTITUTION_CONVERGED)
            break;
    }
    // Coulomb's law holds for the whole impact: friction up to mu times the normal impulse including
    // the launch (a ball striking the ground at 45 degrees with e = 1, mu = 0.05 leaves with its
    // tangential speed cut by mu (1 + e) v_n, not by mu v_n)
    if (any)
        rb_contact_solve_friction(c, pts, va, wa, vb, wb);
}

RB_FN void rb_contact_restitution(const rb_contact_constraint *c, rb_contact_point *pts, float threshold, float slop,
                                  rb_float3 *va, rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    rb_contact_restitution_launch(c, pts, threshold, slop, 0, va, wa, vb, wb);
}

// The impact speed to carry to the next step (0 = none): for a speculative point (gap s > slop) that
// stopped an approach this step. Along the normal the bodies approached at u0 before the step and u1
// after gravity and forces, i.e. with acceleration a = (u1 - u0) / h; over the gap they would have
// reached sqrt(u0^2 + 2 a s). A stop that leaves the bodies still a gap apart (the soft solver's relax
// pass limits the approach to the gap's closing speed at the current pose, so a body can hover a few
// mm above the surface at the end of the frame) keeps the impact it carried in, until the point
// touches or the bodies part: otherwise the bounce depends on where in the gap the step ended (the
// soft solver lost it for one drop height in five).
RB_FN float rb_contact_impact_speed(const rb_contact_point *p, float inv_h, float slop)
{
    if (p->separation <= slop)
        return 0.0f;
    float u0 = -p->relative_velocity, u1 = -p->velocity_after_forces;
    if (u1 <= 0.0f)
        return 0.0f;
    float carried = p->carried_impact;
    if (p->max_normal_impulse == 0.0f)
        return carried;
    float u2 = u0 * u0 + 2.0f * (u1 - u0) * inv_h * p->separation;
    return rb_maxf(carried, u2 > 0.0f ? rb_sqrtf(u2) : 0.0f);
}

#endif
