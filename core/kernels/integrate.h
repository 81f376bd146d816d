// Semi-implicit Euler for one body: velocities from forces, then positions from velocities.
#ifndef RB_KERNELS_INTEGRATE_H
#define RB_KERNELS_INTEGRATE_H

#include "body_flags.h"
#include "vec_math.h"

RB_FN rb_mat3 rb_skew(rb_float3 a)
{
    return rb_mat3_rows(rb_f3(0.0f, -a.z, a.y), rb_f3(a.z, 0.0f, -a.x), rb_f3(-a.y, a.x, 0.0f));
}

RB_FN rb_mat3 rb_mat3_add_scaled(rb_mat3 a, rb_mat3 b, float s)
{
    return rb_mat3_rows(rb_mad(a.r0, s, b.r0), rb_mad(a.r1, s, b.r1), rb_mad(a.r2, s, b.r2));
}

// Gyroscopic torque, integrated implicitly in the body frame by the implicit midpoint rule:
//   I (w' - w) + h m x (I m) = 0,   m = (w + w') / 2
// solved with two Newton steps. The midpoint rule conserves the rotational energy and |L| of a free
// body exactly (the residual is only the Newton error, O(h^3 |w|^3)); backward Euler (Catto, GDC 2015;
// Bullet) is stable too but loses ~8% of the energy of a tumbling box over 10 s at 60 Hz, and the
// explicit term gains energy. `inertia` is the body-frame tensor.
RB_FN rb_float3 rb_gyroscopic_step(rb_float3 w, rb_float4 q, rb_mat3 inertia, float h)
{
    rb_float3 wb = rb_inv_rotate(q, w);
    rb_float3 x = wb;
    for (int it = 0; it < 2; ++it) {
        rb_float3 m = rb_scale(rb_add(wb, x), 0.5f);
        rb_float3 im = rb_mat3_mulv(inertia, m);
        rb_float3 f = rb_add(rb_mat3_mulv(inertia, rb_sub(x, wb)), rb_scale(rb_cross(m, im), h));
        // d f / d x = I + (h / 2) (skew(m) I - skew(I m))
        rb_mat3 j = rb_mat3_add_scaled(inertia, rb_mat3_add_scaled(rb_mat3_mul(rb_skew(m), inertia), rb_skew(im), -1.0f),
                                       0.5f * h);
        x = rb_sub(x, rb_mat3_mulv(rb_mat3_inverse(j), f));
    }
    return rb_rotate(q, x);
}

// Velocity update of an awake dynamic body. Damping uses the Pade form 1 / (1 + h c), which is
// stable for any h c (Box2D's choice).
RB_FN void rb_integrate_velocity(rb_float3 *v, rb_float3 *w, rb_float3 gravity, float inv_mass, rb_mat3 inv_inertia_world,
                                 rb_mat3 inertia_body, rb_float4 q, rb_float3 force, rb_float3 torque,
                                 rb_float4 params /* lin damping, ang damping, gravity scale, - */, float h)
{
    rb_float3 acc = rb_mad(rb_scale(gravity, params.z), inv_mass, force);
    rb_float3 nv = rb_mad(*v, h, acc);
    rb_float3 nw = rb_mad(*w, h, rb_mat3_mulv(inv_inertia_world, torque));
    // w x (I w) = 0 for an isotropic body (spheres): skip the Newton solve
    int isotropic = inertia_body.r0.x == inertia_body.r1.y && inertia_body.r1.y == inertia_body.r2.z &&
                    inertia_body.r0.y == 0.0f && inertia_body.r0.z == 0.0f && inertia_body.r1.z == 0.0f;
    if (!isotropic)
        nw = rb_gyroscopic_step(nw, q, inertia_body, h);
    *v = rb_scale(nv, 1.0f / (1.0f + h * params.x));
    *w = rb_scale(nw, 1.0f / (1.0f + h * params.y));
}

RB_FN void rb_integrate_position(rb_float3 *p, rb_float4 *q, rb_float3 v, rb_float3 w, float h)
{
    *p = rb_mad(*p, h, v);
    *q = rb_quat_integrate(*q, w, h);
}

// integrate_velocities for one body, from its stored state (inertia: the body-frame tensor as stored,
// diagonal and off-diagonal). Returns whether the new velocities are finite: a body whose state went
// non-finite is frozen by the caller, never passed on to its neighbours (docs/architecture.md).
RB_FN int rb_body_integrate_velocity(rb_float3 *v, rb_float3 *w, rb_float3 gravity, float inv_mass,
                                     rb_mat3 inv_inertia_world, rb_float4 inertia_diag, rb_float4 inertia_offdiag,
                                     rb_float4 q, rb_float3 force, rb_float3 torque, rb_float4 params, float h)
{
    rb_mat3 inertia = rb_mat3_symmetric(rb_xyz(inertia_diag), rb_xyz(inertia_offdiag));
    rb_integrate_velocity(v, w, gravity, inv_mass, inv_inertia_world, inertia, q, force, torque, params, h);
    return rb_is_finite3(*v) && rb_is_finite3(*w);
}

// A body whose state went non-finite is stopped and taken out of the simulation until the application
// resets it (rb_frozen_flags), and goes back to its pose at the start of the step (the API's promise)
// when that was saved: with substeps, or with the sequential solver's order (positions move first), it
// may have moved since. The pose is saved by the first substep's integrate_positions; before that
// nothing has moved.
RB_FN void rb_freeze_body(int b, int pose_saved, RB_GLOBAL const rb_float4 *start_pos,
                          RB_GLOBAL const rb_float4 *start_rot, RB_GLOBAL rb_float4 *pos, RB_GLOBAL rb_float4 *rot,
                          RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang, RB_GLOBAL unsigned int *flags)
{
    if (pose_saved) {
        pos[b] = start_pos[b];
        rot[b] = start_rot[b];
    }
    lin[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    ang[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    flags[b] = rb_frozen_flags(flags[b]);
}

// integrate_positions for one body: moved by (move_v, move_w), its velocities plus whatever the solver
// adds for this substep (the split-impulse pseudo velocities). Returns whether the new pose and the
// velocities (v, w) are finite and the new position within the simulated coordinates
// (rb_in_coordinate_range, which a non-finite position fails too); if not, the caller freezes the body
// and leaves its pose as it was.
RB_FN int rb_body_integrate_position(rb_float3 *pos, rb_float4 *q, rb_float3 v, rb_float3 w, rb_float3 move_v,
                                     rb_float3 move_w, float h)
{
    rb_integrate_position(pos, q, move_v, move_w, h);
    return rb_in_coordinate_range(*pos) && rb_is_finite3(v) && rb_is_finite3(w) &&
           rb_is_finite3(rb_f3(q->x, q->y, q->z)) && (q->w - q->w) == 0.0f;
}

#endif
