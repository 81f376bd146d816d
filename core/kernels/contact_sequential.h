// The per-contact math of the `sequential` solver (pe; Schornbaum 2010 §2-§3): one contact point, its
// contact frame and collision matrix, the resolution of one contact with static and kinetic
// friction, and the displacement options of penetration correction.
//
// Conventions are rubble's, not the thesis's: the normal n points from A to B (pe's points from B to
// A), the separation s is negative when penetrating (pe's distance d), and the impulse i acts on B
// (+i) and on A (-i). With u = (v_B + w_B x r_B) - (v_A + w_A x r_A), the relative velocity of B seen
// from A at the contact point, theta = B^T u and theta_0 = u . n < 0 is a closing contact (pe's
// delta-theta_AB,0 has the same sign: pe's n and pe's A - B difference both flip).
#ifndef RB_KERNELS_CONTACT_SEQUENTIAL_H
#define RB_KERNELS_CONTACT_SEQUENTIAL_H

#include "contact_frame.h"

typedef struct rb_seq_contact {
    int body_a, body_b;     // body slots
    int fixed_a, fixed_b;   // infinite mass (static, kinematic, or frozen by shock propagation)
    rb_float3 point;        // world
    rb_float3 normal;       // unit, from A to B
    float separation;       // < 0: penetrating; updated by penetration correction
    float cor, mu_s, mu_k;  // restitution, static and kinetic friction
    // resolution data (rb_seq_prepare)
    rb_float3 t1, t2;       // contact frame: B = [n t1 t2]
    rb_float3 ra, rb;       // from the centres of mass to the point
    int prepared;           // t1, t2, k_inv, k_row0 hold for the masses the solver now uses (0: stale)
    rb_mat3 k_inv;          // K_c^-1, K_c = B^T K B
    rb_float3 k_row0;       // row 0 of K_c
    float closing;          // theta_0 = u . n (< 0 closing)
    float slip;             // |tangential part of u|
    int sliding;            // the last resolution could not stick: friction slide_mu x normal impulse
    float slide_mu;         // mu_k, or mu_s while the slip is below the resting speed (rb_seq_resolve)
    float allowed;          // approach speed the gap allows in one substep: max(separation, 0) / h
    float key;              // priority in the solver's queue: -(size of the violation); see rb_seq_violation
    float target;           // normal velocity the last resolution aimed at: 0, or the bounce speed
    float bounce;           // separating speed still owed from an impact a speculative stop carried over
                            // from the last substep (cor x impact speed; 0: none), see rb_seq_resolve
    float stopped;          // impact speed of an approach this speculative contact stopped: the speed the
                            // fall would have reached at the surface (0: none); see rb_seq_launch_speed_q
    float approach;         // a point of a patch: its fastest approach this step before its manifold's
                            // points were swept (<= 0; set by the solver), the basis of its bounce
    float launch;           // a point of a patch: the bounce speed it aimed at this step (0: none), kept
                            // however its manifold's other points turn the body
    float gravity_dv;       // velocity gravity adds towards the surface in one substep (a body on a fixed
                            // one; 0 between two moving bodies)
    float normal_impulse;   // normal impulse accumulated this step (>= 0); a patch: the sum of its points'
    float friction1, friction2; // friction impulse accumulated this step, along t1 and t2
    rb_float3 impulse;      // total impulse applied this step (on B; A got the opposite)
    // Friction patches (see rb_seq_patch_resolve): a manifold of two or more points has its friction
    // in one extra entry at the points' centroid, and its points are frictionless.
    int patch;              // a point: the index of its manifold's patch, -1 if it has its own friction
    int patch_first, patch_count; // a patch: its points (count 0: this entry is a point)
    float radius;           // the arm of torsional friction: a patch, the mean distance of its points from
                            // the centroid; a point of a round shape, 2/3 of its contact disc (0: none)
    float twist;            // torsional friction impulse about n accumulated this step (on B)
    rb_float3 slip_t;       // a patch: tangential relative velocity at the centroid (measured)
    float spin;             // relative angular velocity about n, (w_B - w_A) . n (measured)
} rb_seq_contact;

// The velocities and mass of one body as the solver sees them.
typedef struct rb_seq_body {
    rb_float3 v, w;
    float inv_mass;
    rb_mat3 inv_inertia;    // world frame; zero for fixed bodies
} rb_seq_body;

RB_FN rb_mat3 rb_seq_skew(rb_float3 r)
{
    return rb_mat3_rows(rb_f3(0.0f, -r.z, r.y), rb_f3(r.z, 0.0f, -r.x), rb_f3(-r.y, r.x, 0.0f));
}

// K = (1/m_A + 1/m_B) E - R_A I_A^-1 R_A - R_B I_B^-1 R_B (Schornbaum 2010 eq. 3.4.11a): an impulse i on B
// (and -i on A) changes u by K i.
RB_FN rb_mat3 rb_seq_collision_matrix(rb_float3 ra, rb_float3 rb, const rb_seq_body *a, const rb_seq_body *b)
{
    float m = a->inv_mass + b->inv_mass;
    rb_mat3 k = rb_mat3_diag(rb_f3(m, m, m));
    rb_mat3 sa = rb_seq_skew(ra), sb = rb_seq_skew(rb);
    rb_mat3 ta = rb_mat3_mul(rb_mat3_mul(sa, a->inv_inertia), sa);
    rb_mat3 tb = rb_mat3_mul(rb_mat3_mul(sb, b->inv_inertia), sb);
    k.r0 = rb_sub(rb_sub(k.r0, ta.r0), tb.r0);
    k.r1 = rb_sub(rb_sub(k.r1, ta.r1), tb.r1);
    k.r2 = rb_sub(rb_sub(k.r2, ta.r2), tb.r2);
    return k;
}

RB_FN rb_float3 rb_seq_relative_velocity(const rb_seq_contact *c, const rb_seq_body *a, const rb_seq_body *b)
{
    return rb_sub(rb_add(b->v, rb_cross(b->w, c->rb)), rb_add(a->v, rb_cross(a->w, c->ra)));
}

// The anchors: from the centres of mass pa, pb to the point. All that measuring a contact needs.
RB_FN void rb_seq_anchor(rb_seq_contact *c, rb_float3 pa, rb_float3 pb)
{
    c->ra = rb_sub(c->point, pa);
    c->rb = rb_sub(c->point, pb);
}

// Contact frame and the matrices of eq. 3.4.12 for the bodies' current (possibly frozen) masses; the
// anchors must be set. Only a contact that is resolved needs them.
RB_FN void rb_seq_prepare_matrices(rb_seq_contact *c, const rb_seq_body *a, const rb_seq_body *b)
{
    rb_contact_basis(c->normal, &c->t1, &c->t2);
    rb_mat3 k = rb_seq_collision_matrix(c->ra, c->rb, a, b);
    // K_c = B^T K B with B = [n t1 t2] as columns
    rb_float3 kn = rb_mat3_mulv(k, c->normal), k1 = rb_mat3_mulv(k, c->t1), k2 = rb_mat3_mulv(k, c->t2);
    rb_mat3 kc = rb_mat3_rows(rb_f3(rb_dot(c->normal, kn), rb_dot(c->normal, k1), rb_dot(c->normal, k2)),
                              rb_f3(rb_dot(c->t1, kn), rb_dot(c->t1, k1), rb_dot(c->t1, k2)),
                              rb_f3(rb_dot(c->t2, kn), rb_dot(c->t2, k1), rb_dot(c->t2, k2)));
    c->k_row0 = kc.r0;
    c->k_inv = rb_mat3_inverse(kc);
}

// Anchors, frame and matrices together. pa, pb: centres of mass.
RB_FN void rb_seq_prepare(rb_seq_contact *c, rb_float3 pa, rb_float3 pb, const rb_seq_body *a, const rb_seq_body *b)
{
    rb_seq_anchor(c, pa, pb);
    rb_seq_prepare_matrices(c, a, b);
}

RB_FN float rb_seq_closing(const rb_seq_contact *c, const rb_seq_body *a, const rb_seq_body *b)
{
    return rb_dot(rb_seq_relative_velocity(c, a, b), c->normal);
}

RB_FN void rb_seq_apply(const rb_seq_contact *c, rb_float3 i, rb_seq_body *a, rb_seq_body *b)
{
    a->v = rb_mad(a->v, -a->inv_mass, i);
    a->w = rb_sub(a->w, rb_mat3_mulv(a->inv_inertia, rb_cross(c->ra, i)));
    b->v = rb_mad(b->v, b->inv_mass, i);
    b->w = rb_add(b->w, rb_mat3_mulv(b->inv_inertia, rb_cross(c->rb, i)));
}

// How much the contact violates what the solver wants, or 0: closing faster than `threshold` (pe's
// test, eq. 3.4.3), or separating faster than its target by more than `threshold` while it still
// carries normal impulse from this step (it pushed more than it had to: that much may be taken back,
// see rb_seq_pull_back). Pushes only — as in pe — end at some non-closing state, not the least-energy
// one; with several support points per body the difference is a small separating velocity, which
// shock propagation stacks level on level into a pile that climbs (measured: a 10-layer pyramid rose
// 9 mm in one second). Taking back excess impulse removes it.
// A contact that pushes this step and still slips, although the static cone could hold it, violates
// too: resolutions at the other points of a manifold turn the body and leave this point sliding, and
// without this test nothing stops it (measured: a box held by mu_s on a slope crept at 1.6 cm/s).
enum { RB_SEQ_NONE = 0, RB_SEQ_RESOLVE = 1, RB_SEQ_PULL_BACK = 2 };

RB_FN int rb_seq_action(const rb_seq_contact *c, float threshold, float *size)
{
    // a speculative contact (still a gap away) violates only if the gap would close in this substep
    float closing = c->closing + c->allowed;
    *size = 0.0f;
    if (closing < -threshold) {
        *size = -closing;
        return RB_SEQ_RESOLVE;
    }
    if (c->allowed == 0.0f && c->closing < c->bounce - threshold) {
        *size = c->bounce - c->closing; // an impact owed from the last substep (still 0 apart in zero g)
        return RB_SEQ_RESOLVE;
    }
    if (c->normal_impulse > 0.0f) {
        float over = c->closing - c->target;
        if (over > threshold) {
            *size = over;
            return RB_SEQ_PULL_BACK;
        }
        if (!c->sliding && c->slip > threshold && c->mu_s > 0.0f) { // (a patch's points are frictionless)
            *size = c->slip;
            return RB_SEQ_RESOLVE;
        }
        // spinning about the normal while its torsional friction is not yet kinetic against the spin
        float spin = rb_fabsf(c->spin) * c->radius;
        if (spin > threshold && c->mu_s > 0.0f &&
            !(c->twist * c->spin < 0.0f && rb_fabsf(c->twist) >= 0.999f * c->mu_k * c->normal_impulse * c->radius)) {
            *size = spin;
            return RB_SEQ_RESOLVE;
        }
    }
    return RB_SEQ_NONE;
}

RB_FN float rb_seq_violation(const rb_seq_contact *c, float threshold)
{
    float size;
    rb_seq_action(c, threshold, &size);
    return size;
}

// Takes back normal impulse from a contact that separates faster than its target: just enough to
// bring it to the target, at most what it took this step. Friction is left as it is.
RB_FN void rb_seq_pull_back(rb_seq_contact *c, rb_seq_body *a, rb_seq_body *b)
{
    float over = rb_seq_closing(c, a, b) - c->target;
    float dj = c->k_row0.x > 0.0f ? over / c->k_row0.x : 0.0f;
    if (dj > c->normal_impulse)
        dj = c->normal_impulse;
    if (!(dj > 0.0f))
        return;
    c->normal_impulse -= dj;
    rb_float3 i = rb_scale(c->normal, -dj);
    // a sliding contact's friction is slide_mu times its normal impulse: it shrinks with it (else pull-backs
    // leave friction above the cone and a sliding box brakes many times too hard). A sticking contact
    // keeps what holds it; its cone is checked again when it slips (rb_seq_action)
    float f2 = c->friction1 * c->friction1 + c->friction2 * c->friction2;
    float cap = c->slide_mu * c->normal_impulse;
    if (c->sliding && f2 > cap * cap) {
        float scale = cap / rb_sqrtf(f2) - 1.0f; // < 0: the part of the friction given back
        float d1 = scale * c->friction1, d2 = scale * c->friction2;
        i = rb_add(i, rb_add(rb_scale(c->t1, d1), rb_scale(c->t2, d2)));
        c->friction1 += d1;
        c->friction2 += d2;
    }
    rb_seq_apply(c, i, a, b);
    c->impulse = rb_add(c->impulse, i);
}

// Resolves one closing contact (Schornbaum 2010 Alg. 8 with Alg. 11): the normal relative velocity becomes
// -cor theta_0 (0 for impacts slower than restitution_threshold, so resting contacts never bounce; for a
// speculative contact, the approach that closes the gap exactly in this substep),
// and the tangential relative velocity stops if that takes an impulse inside the static cone
// |j_t| <= mu_s j_0; otherwise kinetic friction: the tangential impulse keeps the direction of the
// sticking impulse, scaled so |j_t| = mu_k j_0 with the normal outcome still met (eqs. 3.5.7-3.5.8).
// Returns the impulse applied to B (A gets the opposite).
// The launch speed of a bounce with restitution e from an impact at speed c at the surface, for the
// sequential solver's order of integration (positions move first, with the last velocity; then gravity
// adds g_dv = a h). That order conserves Q = v^2/2 + a y + a h v/2 in free flight, so the contact
// gives back e^2 of the fall's Q: w^2 + g_dv w = e^2 (c^2 - g_dv c), the impact measured after this
// substep's gravity. (Launching at e c instead, an elastic ball climbed 7% in 10 bounces at 180 Hz,
// 27% at 60 Hz.) For an impact carried from a speculative stop, c^2 - g_dv c is computed
// when the stop happens, with the gap still to go, and carried as its square root (the speed the
// fall would have reached at the surface, `stopped`).
RB_FN float rb_seq_launch_speed_q(float e, float q2, float g_dv)
{
    // q2: the fall's v^2 + g_dv v at the surface (2 Q there)
    return rb_sqrtf(0.25f * g_dv * g_dv + e * e * rb_maxf(q2, 0.0f)) - 0.5f * g_dv;
}

// Torsional friction of a point of a round shape (rubble's addition; pe's points have none): a point
// contact cannot stop a spin about its normal, and a ball spinning about the vertical on the ground
// never fell asleep (docs/solver-sequential.md). The spin stops if that takes a torsional impulse
// within mu_s n r, else it is braked by mu_k n r; r is 2/3 of the radius of the contact disc (uniform
// pressure). Decoupled from the linear friction (exact for a sphere, whose contact lies under its centre).
RB_FN void rb_seq_resolve_twist(rb_seq_contact *c, rb_seq_body *a, rb_seq_body *b)
{
    rb_float3 n = c->normal;
    rb_float3 ta = rb_mat3_mulv(a->inv_inertia, n), tb = rb_mat3_mulv(b->inv_inertia, n);
    float mt = rb_dot(n, rb_add(ta, tb));
    if (!(mt > 0.0f))
        return;
    float spin = rb_dot(rb_sub(b->w, a->w), n);
    float tw = c->twist - spin / mt;
    float nn = rb_maxf(c->normal_impulse, 0.0f);
    if (rb_fabsf(tw) > c->mu_s * nn * c->radius)
        tw = (tw < 0.0f ? -c->mu_k : c->mu_k) * nn * c->radius;
    float d = tw - c->twist;
    a->w = rb_sub(a->w, rb_scale(ta, d));
    b->w = rb_add(b->w, rb_scale(tb, d));
    c->twist = tw;
}

RB_FN rb_float3 rb_seq_resolve(rb_seq_contact *c, float restitution_threshold, rb_seq_body *a, rb_seq_body *b)
{
    rb_float3 u = rb_seq_relative_velocity(c, a, b);
    float th0 = rb_dot(u, c->normal), th1 = rb_dot(u, c->t1), th2 = rb_dot(u, c->t2);
    float rest;
    // A manifold's points land together (a box flat on the ground): each is resolved several times in a
    // step (the solver sweeps them, backend-cpu/contact_solver_sequential.c), and a bounce aimed at the
    // approach the others' impulses left made them disagree and turn the body: a point of a patch
    // bounces on its approach before the sweep, and a later resolution keeps its launch
    float basis = c->patch >= 0 ? c->approach : th0;
    if (c->allowed > 0.0f) {
        // a speculative contact: the approach that reaches the surface at the end of the substep. The
        // bounce waits for the touch (else a fast body rebounds up to h v early, from thin air): the
        // impact speed is carried to the next substep, where the touching contact owes cor x that
        rest = -c->allowed;
        if (basis < rest && -basis > restitution_threshold && c->cor > 0.0f) {
            // the fall's invariant at the surface: c^2 - g_dv c, plus 2 a gap = 2 g_dv allowed still to fall
            float q2 = basis * basis + c->gravity_dv * basis + 2.0f * c->gravity_dv * c->allowed;
            c->stopped = rb_maxf(c->stopped, rb_sqrtf(rb_maxf(q2, 0.0f)));
        }
    } else {
        if (c->bounce > 0.0f) {
            rest = c->bounce;
            c->bounce = 0.0f;
        } else {
            float e = basis > -restitution_threshold ? 0.0f : c->cor;
            rest = e > 0.0f ? rb_seq_launch_speed_q(e, basis * basis + c->gravity_dv * basis, c->gravity_dv) : 0.0f;
        }
        if (c->patch >= 0) {
            rest = rb_maxf(rest, c->launch);
            c->launch = rest;
        }
    }
    rb_float3 want = rb_f3(rest - th0, -th1, -th2);
    rb_float3 j = rb_mat3_mulv(c->k_inv, want);
    // the contact's totals after this impulse; friction is judged on them (the cone of the total normal
    // impulse), so friction taken in earlier resolutions can be given back
    float n_total = c->normal_impulse + j.x;
    float f1 = c->friction1 + j.y, f2 = c->friction2 + j.z;
    float ft2 = f1 * f1 + f2 * f2;
    // a sticking impulse that would pull, or lies outside the static cone, slides
    c->sliding = n_total < 0.0f || ft2 > c->mu_s * c->mu_s * n_total * n_total;
    if (c->sliding) {
        // It cannot stick: friction mu n along d, with n the normal impulse AFTER this resolution (row 0 of
        // K_c, eq. 3.5.6, with j_t = mu (N + j_n) d - F is linear in j_n; scaling by the n before the
        // normal impulse is recomputed left friction off the cone and a box slid several times too
        // slow). mu is kinetic once the point slips faster than the resting speed (the restitution
        // threshold, the speed one substep of gravity gives), static below it: a box on a slope with
        // mu_k < tan theta < mu_s whose single points cannot all stick is still held by the cones of mu_s.
        // d opposes the slip (Coulomb), not the sticking impulse as in eq. 3.5.7: with an anisotropic
        // K_c the two differ, and a sliding box then got sideways friction and only 89% of mu_k along its
        // motion. The sticking direction serves only when there is no slip.
        float slip = rb_sqrtf(th1 * th1 + th2 * th2);
        float mu = slip > restitution_threshold ? c->mu_k : c->mu_s;
        c->slide_mu = mu;
        float d1, d2;
        if (slip > 1e-6f) {
            d1 = -th1 / slip;
            d2 = -th2 / slip;
        } else {
            float inv = ft2 > 0.0f ? 1.0f / rb_sqrtf(ft2) : 0.0f;
            d1 = f1 * inv;
            d2 = f2 * inv;
        }
        float kd = c->k_row0.y * d1 + c->k_row0.z * d2;
        float den = c->k_row0.x + mu * kd;
        if (den > 0.0f)
            j.x = (want.x + c->k_row0.y * c->friction1 + c->k_row0.z * c->friction2 - mu * c->normal_impulse * kd) / den;
        if (c->normal_impulse + j.x < 0.0f)
            j.x = -c->normal_impulse;
        float n_new = c->normal_impulse + j.x;
        j.y = mu * n_new * d1 - c->friction1;
        j.z = mu * n_new * d2 - c->friction2;
    }
    rb_float3 i = rb_add(rb_scale(c->normal, j.x), rb_add(rb_scale(c->t1, j.y), rb_scale(c->t2, j.z)));
    rb_seq_apply(c, i, a, b);
    c->impulse = rb_add(c->impulse, i);
    c->normal_impulse += j.x;
    c->friction1 += j.y;
    c->friction2 += j.z;
    c->target = rest;
    if (c->radius > 0.0f)
        rb_seq_resolve_twist(c, a, b);
    return i;
}

// ---- friction patches ----
//
// pe judges friction point by point: the tangential impulse of each point lies in its own cone
// |j_t| <= mu j_n. A box on a plane touches at four points whose normal impulses are statically
// indeterminate, and the largest-first resolution loads them unevenly (mostly a diagonal pair). Then
// (1) sliding friction mu n_i at unevenly loaded corners turns the box about the normal, the spin
// bends each corner's slip away from the motion, and the box slid 3-10% farther than
// g (sin - mu_k cos) t^2 / 2 (20 and 17.6 degrees, mu 0.3); (2) the first point resolved for slip has to
// stop the whole body in its own small cone, is declared sliding and is never re-resolved for slip,
// and a box held by mu_s crept (1 cm/s at tan theta = 0.36, mu 0.6, without gravity damping). A rigid
// flat contact has one Coulomb law, for its totals: the friction of a manifold of two or more points
// is one resolution at the centroid of its points, with two tangential directions and the twist
// about the normal, inside the cone of the sum N of its points' normal impulses,
// |F|^2 + (tau / r)^2 <= (mu N)^2, r the mean distance of the points from the centroid (their torsional
// arm). The points keep pe's normal resolution, frictionless.

// The patch's collision matrix in the coordinates of its cone: impulses x = (F_t1, F_t2, tau / r) at the
// centroid change the generalized slip y = (u . t1, u . t2, r (w_B - w_A) . n) by M x. An angular
// impulse tau n acts on B (-tau n on A).
RB_FN rb_mat3 rb_seq_patch_matrix(const rb_seq_contact *c, const rb_seq_body *a, const rb_seq_body *b)
{
    rb_mat3 k = rb_seq_collision_matrix(c->ra, c->rb, a, b);
    rb_float3 n = c->normal, t1 = c->t1, t2 = c->t2;
    float r = c->radius;
    rb_float3 ta = rb_mat3_mulv(a->inv_inertia, n), tb = rb_mat3_mulv(b->inv_inertia, n);
    // velocity change at the centroid per unit torsional impulse: (I_B^-1 n) x r_B + (I_A^-1 n) x r_A
    rb_float3 du = rb_add(rb_cross(tb, c->rb), rb_cross(ta, c->ra));
    rb_float3 k1 = rb_mat3_mulv(k, t1), k2 = rb_mat3_mulv(k, t2);
    float m02 = rb_dot(t1, du) * r, m12 = rb_dot(t2, du) * r, m22 = rb_dot(n, rb_add(ta, tb)) * r * r;
    return rb_mat3_rows(rb_f3(rb_dot(t1, k1), rb_dot(t1, k2), m02), rb_f3(rb_dot(t2, k1), rb_dot(t2, k2), m12),
                        rb_f3(m02, m12, m22));
}

// The patch's generalized slip y from its measured slip and spin.
RB_FN rb_float3 rb_seq_patch_slip(const rb_seq_contact *c)
{
    return rb_f3(rb_dot(c->slip_t, c->t1), rb_dot(c->slip_t, c->t2), c->spin * c->radius);
}

// What a patch asks of the solver: resolve when it slips faster than `threshold` and is not sliding;
// when it slides but its friction is no longer mu N against its slip (Coulomb; the normal impulses
// under it or the slip changed since it was resolved), to within 2% of the cone; and when its friction
// lies outside its cone (its points' normal impulses shrank). *size: the slip (the queue's priority).
RB_FN int rb_seq_patch_action(const rb_seq_contact *c, float threshold, float *size)
{
    float n = rb_maxf(c->normal_impulse, 0.0f);
    float tr = c->twist / c->radius;
    float f2 = c->friction1 * c->friction1 + c->friction2 * c->friction2 + tr * tr;
    float lim = (c->sliding ? c->slide_mu : c->mu_s) * n;
    *size = 0.0f;
    if (f2 > lim * lim * 1.0001f + 1e-20f) {
        *size = rb_maxf(c->slip, 2.0f * threshold);
        return RB_SEQ_RESOLVE;
    }
    if (!(c->slip > threshold) || !(n > 0.0f))
        return RB_SEQ_NONE;
    if (!c->sliding) {
        *size = c->slip;
        return RB_SEQ_RESOLVE;
    }
    rb_float3 y = rb_seq_patch_slip(c);
    float k = lim / c->slip;
    float e1 = c->friction1 + k * y.x, e2 = c->friction2 + k * y.y, e3 = tr + k * y.z;
    if (e1 * e1 + e2 * e2 + e3 * e3 > 4e-4f * lim * lim + 1e-20f) {
        *size = c->slip;
        return RB_SEQ_RESOLVE;
    }
    return RB_SEQ_NONE;
}

// Resolves a patch. With w = y - M x the slip its own friction x leaves out, the impulse that stops it,
// x = -M^-1 w, is kept if it lies in the static cone |x| <= mu_s N; else the patch slides, and Coulomb's
// friction (maximum dissipation) is the x on the cone |x| = mu N that the slip it leaves opposes:
// w + M x = -lambda x, lambda > 0, so x = -(M + lambda E)^-1 w, lambda found by Newton's method on
// 1 / |x(lambda)| (exact in one step where M is isotropic). Neither "against the slip before" nor
// "along the sticking impulse" is this unless M is isotropic: against the slip before, a box sliding
// slowly with its friction at the centroid below its centre of mass rocked and the friction flipped
// from side to side. A sliding patch has kinetic friction at once: unlike a single point, a patch that
// cannot stick in mu_s N cannot be held by its other points (pe's points keep mu_s below the resting
// speed, rb_seq_resolve; for a patch that made a box with tan theta = 0.7 > mu_s = 0.6 > mu_k = 0.4 slide
// 8% short). Returns the linear impulse applied to B.
RB_FN rb_float3 rb_seq_patch_resolve(rb_seq_contact *c, rb_seq_body *a, rb_seq_body *b)
{
    rb_float3 u = rb_seq_relative_velocity(c, a, b);
    float r = c->radius;
    rb_float3 y = rb_f3(rb_dot(u, c->t1), rb_dot(u, c->t2), rb_dot(rb_sub(b->w, a->w), c->normal) * r);
    rb_mat3 m = rb_seq_patch_matrix(c, a, b);
    rb_float3 x_old = rb_f3(c->friction1, c->friction2, c->twist / r);
    rb_float3 w = rb_sub(y, rb_mat3_mulv(m, x_old));
    rb_float3 x = rb_neg(rb_mat3_mulv(rb_mat3_inverse(m), w));
    float n = rb_maxf(c->normal_impulse, 0.0f);
    float lim = c->mu_s * n;
    c->sliding = !(rb_len_sq(x) <= lim * lim);
    if (c->sliding) {
        float mu = c->mu_k;
        c->slide_mu = mu;
        lim = mu * n;
        if (!(lim > 0.0f)) {
            x = rb_f3(0.0f, 0.0f, 0.0f);
        } else {
            float lambda = 0.0f;
            for (int it = 0; it < 8; ++it) {
                rb_mat3 ml = m;
                ml.r0.x += lambda;
                ml.r1.y += lambda;
                ml.r2.z += lambda;
                rb_mat3 inv = rb_mat3_inverse(ml);
                x = rb_neg(rb_mat3_mulv(inv, w));
                float len = rb_len(x);
                if (!(len > 0.0f))
                    break;
                // g(lambda) = 1/|x| - 1/lim, g' = x^T (M + lambda E)^-1 x / |x|^3
                float g = 1.0f / len - 1.0f / lim;
                float dg = rb_dot(x, rb_mat3_mulv(inv, x)) / (len * len * len);
                if (rb_fabsf(g) * lim < 1e-4f || !(dg > 0.0f))
                    break;
                lambda = rb_maxf(lambda - g / dg, 0.0f);
            }
            float len = rb_len(x);
            if (len > 0.0f)
                x = rb_scale(x, lim / len); // onto the cone exactly
        }
    }
    rb_float3 dx = rb_sub(x, x_old);
    rb_float3 i = rb_add(rb_scale(c->t1, dx.x), rb_scale(c->t2, dx.y));
    float dtau = dx.z * r;
    rb_seq_apply(c, i, a, b);
    a->w = rb_sub(a->w, rb_scale(rb_mat3_mulv(a->inv_inertia, c->normal), dtau));
    b->w = rb_add(b->w, rb_scale(rb_mat3_mulv(b->inv_inertia, c->normal), dtau));
    c->friction1 = x.x;
    c->friction2 = x.y;
    c->twist = x.z * r;
    c->impulse = rb_add(c->impulse, i);
    return i;
}

// ---- penetration correction (Schornbaum 2010 §2) ----

// Displacement that moves one body of a penetrating contact out along the normal by -dcorr (the
// corrected distance, < 0): A along -n, B along +n (eq. 2.3.1 in rubble's orientation).
RB_FN rb_float3 rb_seq_push_along_normal(rb_float3 n, float dcorr, int move_b)
{
    return rb_scale(n, move_b ? -dcorr : dcorr);
}

// Displacement that moves a body back along its last motion D (eqs. 2.3.2-2.3.3): valid only if that
// motion carried it into the contact by at least -dcorr, so it goes back at most the whole of it.
// Returns 0 if invalid. A is valid when D_A . n >= -dcorr (A moved towards B), B when D_B . n <= dcorr.
RB_FN int rb_seq_push_back(rb_float3 n, float dcorr, int move_b, rb_float3 motion, rb_float3 *out)
{
    float dn = rb_dot(motion, n);
    if (!move_b) {
        if (!(dn >= -dcorr) || dn <= 0.0f)
            return 0;
        *out = rb_scale(motion, dcorr / dn); // dcorr < 0 < dn: backwards, normal part dcorr
    } else {
        if (!(dn <= dcorr) || dn >= 0.0f)
            return 0;
        *out = rb_scale(motion, -dcorr / dn); // backwards, normal part -dcorr
    }
    return 1;
}

// Displacement that lifts one body of a penetrating contact straight against gravity (`up`, unit) until
// its normal separation has grown by -dcorr: rubble's fifth option, for when the four of the thesis all
// push into a fixed body (a dense pile in a pen: every sideways push ends at a wall; see
// docs/solver-sequential.md). Valid only for the body lying above the contact, and only while the
// contact is not too steep (the lift would be more than four times the depth). Returns 0 if invalid.
RB_FN int rb_seq_push_up(rb_float3 n, float dcorr, int move_b, rb_float3 up, rb_float3 *out)
{
    float un = rb_dot(up, move_b ? n : rb_neg(n)); // how far the body rises along its own push-out side
    if (!(un > 0.25f))
        return 0;
    *out = rb_scale(up, -dcorr / un);
    return 1;
}

// The body `moved` (displaced by d) pushes the other body of a contact, whose normal seen from `moved`
// is n_xy and whose (tolerance-shifted) distance is dist: if moving by d closes the distance, returns 1
// and the share of d the other body must take (all of it without a gap; with a gap, the part beyond
// the gap, by the intercept theorem, eq. 2.3.6).
RB_FN int rb_seq_pushes(rb_float3 d, rb_float3 n_xy, float dist, rb_float3 *other)
{
    float dn = rb_dot(d, n_xy);
    if (!(dn > 0.0f && dn > dist))
        return 0;
    *other = dist > 0.0f ? rb_scale(d, (dn - dist) / dn) : d;
    return 1;
}

#endif
