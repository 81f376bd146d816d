// Semi-implicit Euler for one body: velocities from forces, then positions from velocities.
#ifndef RB_KERNELS_INTEGRATE_H
#define RB_KERNELS_INTEGRATE_H

#include "vec_math.h"

RB_FN rb_mat3 rb_skew(rb_float3 a)
{
    return rb_mat3_rows(rb_f3(0.0f, -a.z, a.y), rb_f3(a.z, 0.0f, -a.x), rb_f3(-a.y, a.x, 0.0f));
}

RB_FN rb_mat3 rb_mat3_add_scaled(rb_mat3 a, rb_mat3 b, float s)
{
    return rb_mat3_rows(rb_mad(a.r0, s, b.r0), rb_mad(a.r1, s, b.r1), rb_mad(a.r2, s, b.r2));
}

// Gyroscopic torque, integrated implicitly in the body frame with one Newton step (Catto, GDC 2015,
// "Numerical methods"; as Bullet's implicit body gyroscopic term): solves
//   I (w' - w) + h w' x (I w') = 0
// which keeps a freely spinning body's angular momentum (and bounds its energy) where the explicit
// term would blow up. `inertia` is the body-frame tensor.
RB_FN rb_float3 rb_gyroscopic_step(rb_float3 w, rb_float4 q, rb_mat3 inertia, float h)
{
    rb_float3 wb = rb_inv_rotate(q, w);
    rb_float3 iw = rb_mat3_mulv(inertia, wb);
    rb_float3 f = rb_scale(rb_cross(wb, iw), h);
    // J = I + h (skew(wb) I - skew(I wb))
    rb_mat3 j = rb_mat3_add_scaled(inertia, rb_mat3_add_scaled(rb_mat3_mul(rb_skew(wb), inertia), rb_skew(iw), -1.0f), h);
    rb_float3 dw = rb_mat3_mulv(rb_mat3_inverse(j), f);
    return rb_rotate(q, rb_sub(wb, dw));
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
    nw = rb_gyroscopic_step(nw, q, inertia_body, h);
    *v = rb_scale(nv, 1.0f / (1.0f + h * params.x));
    *w = rb_scale(nw, 1.0f / (1.0f + h * params.y));
}

RB_FN void rb_integrate_position(rb_float3 *p, rb_float4 *q, rb_float3 v, rb_float3 w, float h)
{
    *p = rb_mad(*p, h, v);
    *q = rb_quat_integrate(*q, w, h);
}

#endif
