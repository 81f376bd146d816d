// Vectors, quaternions, 3x3 matrices and rigid transforms, shared by every backend.
#ifndef RB_KERNELS_VEC_MATH_H
#define RB_KERNELS_VEC_MATH_H

#include "portable.h"

typedef struct rb_float3 {
    float x, y, z;
} rb_float3;

// Storage type of every per-body / per-shape vector array: 16 bytes, so the same arrays copy to
// OpenCL and CUDA buffers without repacking. Quaternions are (x, y, z, w), scalar last.
typedef struct rb_float4 {
    float x, y, z, w;
} rb_float4;

// Row-major 3x3 matrix.
typedef struct rb_mat3 {
    rb_float3 r0, r1, r2;
} rb_mat3;

typedef struct rb_xform {
    rb_float3 p;
    rb_float4 q;
} rb_xform;

RB_FN rb_float3 rb_f3(float x, float y, float z)
{
    rb_float3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

RB_FN rb_float4 rb_f4(float x, float y, float z, float w)
{
    rb_float4 v;
    v.x = x;
    v.y = y;
    v.z = z;
    v.w = w;
    return v;
}

RB_FN rb_float3 rb_xyz(rb_float4 v) { return rb_f3(v.x, v.y, v.z); }
RB_FN rb_float4 rb_f4_from3(rb_float3 v, float w) { return rb_f4(v.x, v.y, v.z, w); }

RB_FN rb_float3 rb_add(rb_float3 a, rb_float3 b) { return rb_f3(a.x + b.x, a.y + b.y, a.z + b.z); }
RB_FN rb_float3 rb_sub(rb_float3 a, rb_float3 b) { return rb_f3(a.x - b.x, a.y - b.y, a.z - b.z); }
RB_FN rb_float3 rb_neg(rb_float3 a) { return rb_f3(-a.x, -a.y, -a.z); }
RB_FN rb_float3 rb_scale(rb_float3 a, float s) { return rb_f3(a.x * s, a.y * s, a.z * s); }
RB_FN rb_float3 rb_mul(rb_float3 a, rb_float3 b) { return rb_f3(a.x * b.x, a.y * b.y, a.z * b.z); }
// a + s*b
RB_FN rb_float3 rb_mad(rb_float3 a, float s, rb_float3 b) { return rb_f3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
RB_FN float rb_dot(rb_float3 a, rb_float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
RB_FN rb_float3 rb_cross(rb_float3 a, rb_float3 b)
{
    return rb_f3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
RB_FN float rb_len_sq(rb_float3 a) { return rb_dot(a, a); }
RB_FN float rb_len(rb_float3 a) { return rb_sqrtf(rb_dot(a, a)); }
RB_FN rb_float3 rb_min3(rb_float3 a, rb_float3 b) { return rb_f3(rb_minf(a.x, b.x), rb_minf(a.y, b.y), rb_minf(a.z, b.z)); }
RB_FN rb_float3 rb_max3(rb_float3 a, rb_float3 b) { return rb_f3(rb_maxf(a.x, b.x), rb_maxf(a.y, b.y), rb_maxf(a.z, b.z)); }
RB_FN rb_float3 rb_abs3(rb_float3 a) { return rb_f3(rb_fabsf(a.x), rb_fabsf(a.y), rb_fabsf(a.z)); }
RB_FN rb_float3 rb_lerp3(rb_float3 a, rb_float3 b, float t) { return rb_mad(a, t, rb_sub(b, a)); }
RB_FN float rb_get(rb_float3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
// v with component i replaced by s
RB_FN rb_float3 rb_set(rb_float3 v, int i, float s)
{
    if (i == 0)
        v.x = s;
    else if (i == 1)
        v.y = s;
    else
        v.z = s;
    return v;
}
RB_FN int rb_is_finite3(rb_float3 v)
{
    // x - x is 0 for finite x and NaN for inf/NaN; avoids isfinite(), which differs across dialects.
    float s = (v.x - v.x) + (v.y - v.y) + (v.z - v.z);
    return s == 0.0f;
}

// The coordinates rubble simulates in: |x|, |y|, |z| <= 1e18 m. Within them a difference of two
// positions is at most 2e18 per axis and its squared length at most 1.2e37, far below FLT_MAX (3.4e38),
// so the narrow phase's squared lengths, dot products and normalisations hold; beyond them they
// overflow (a box at 4e35 m got a contact "normal" of length 2e16 and a depth of -1.8e19 = -sqrt(2^128)).
// A body whose motion would take it beyond is frozen like a non-finite one (rb_body_integrate_position),
// and the API refuses positions beyond (a shape's offset from its body, at most 1e6 m, rounds away at
// 1e18 m); docs/limits.md.
#define RB_COORDINATE_LIMIT 1e18f
RB_FN int rb_in_coordinate_range(rb_float3 p)
{
    // false for NaN too
    return rb_fabsf(p.x) <= RB_COORDINATE_LIMIT && rb_fabsf(p.y) <= RB_COORDINATE_LIMIT &&
           rb_fabsf(p.z) <= RB_COORDINATE_LIMIT;
}

// Normalise; a (near) zero vector gives `fallback`.
RB_FN rb_float3 rb_normalize_or(rb_float3 a, rb_float3 fallback)
{
    float l = rb_len(a);
    if (l < 1e-20f)
        return fallback;
    return rb_scale(a, 1.0f / l);
}

RB_FN rb_float3 rb_normalize(rb_float3 a) { return rb_normalize_or(a, rb_f3(0.0f, 1.0f, 0.0f)); }

// ---- quaternions (x, y, z, w) ----

RB_FN rb_float4 rb_quat_identity(void) { return rb_f4(0.0f, 0.0f, 0.0f, 1.0f); }

RB_FN rb_float4 rb_quat_mul(rb_float4 a, rb_float4 b)
{
    return rb_f4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                 a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                 a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

RB_FN rb_float4 rb_quat_conj(rb_float4 q) { return rb_f4(-q.x, -q.y, -q.z, q.w); }

RB_FN rb_float4 rb_quat_normalize(rb_float4 q)
{
    float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (l2 < 1e-30f)
        return rb_quat_identity();
    float s = 1.0f / rb_sqrtf(l2);
    return rb_f4(q.x * s, q.y * s, q.z * s, q.w * s);
}

// v' = q v q*, expanded: v + 2w(u x v) + 2 u x (u x v).
RB_FN rb_float3 rb_rotate(rb_float4 q, rb_float3 v)
{
    rb_float3 u = rb_f3(q.x, q.y, q.z);
    rb_float3 t = rb_scale(rb_cross(u, v), 2.0f);
    return rb_add(rb_add(v, rb_scale(t, q.w)), rb_cross(u, t));
}

RB_FN rb_float3 rb_inv_rotate(rb_float4 q, rb_float3 v) { return rb_rotate(rb_quat_conj(q), v); }

RB_FN rb_float4 rb_quat_axis_angle(rb_float3 axis, float angle)
{
    if (rb_len_sq(axis) < 1e-30f)
        return rb_quat_identity(); // no axis, no rotation
    rb_float3 a = rb_normalize(axis);
    float s = rb_sinf(0.5f * angle);
    return rb_f4(a.x * s, a.y * s, a.z * s, rb_cosf(0.5f * angle));
}

// Quaternion update with a world-frame angular velocity held constant over the step:
// q' = [a sin(theta/2), cos(theta/2)] q, theta = h |w|, a = w / |w| (the exponential map, as in
// Tonge's talk). Exact for a constant spin; the first-order q + h/2 [w, 0] q turns short by
// O(h^3 |w|^3) per step, which made a tumbling box's angular momentum drift by ~1%.
RB_FN rb_float4 rb_quat_integrate(rb_float4 q, rb_float3 w, float h)
{
    float len = rb_len(w);
    float half_angle = 0.5f * h * len;
    if (half_angle < 1e-6f) {
        // sin(x)/x ~ 1 below float resolution: the first-order form is exact there
        rb_float4 dq = rb_quat_mul(rb_f4(w.x, w.y, w.z, 0.0f), q);
        float s = 0.5f * h;
        return rb_quat_normalize(rb_f4(q.x + s * dq.x, q.y + s * dq.y, q.z + s * dq.z, q.w + s * dq.w));
    }
    float s = rb_sinf(half_angle) / len;
    return rb_quat_normalize(rb_quat_mul(rb_f4(w.x * s, w.y * s, w.z * s, rb_cosf(half_angle)), q));
}

// ---- 3x3 matrices ----

RB_FN rb_mat3 rb_mat3_rows(rb_float3 r0, rb_float3 r1, rb_float3 r2)
{
    rb_mat3 m;
    m.r0 = r0;
    m.r1 = r1;
    m.r2 = r2;
    return m;
}

RB_FN rb_mat3 rb_mat3_diag(rb_float3 d)
{
    return rb_mat3_rows(rb_f3(d.x, 0.0f, 0.0f), rb_f3(0.0f, d.y, 0.0f), rb_f3(0.0f, 0.0f, d.z));
}

RB_FN rb_mat3 rb_mat3_zero(void) { return rb_mat3_diag(rb_f3(0.0f, 0.0f, 0.0f)); }

RB_FN rb_float3 rb_mat3_mulv(rb_mat3 m, rb_float3 v) { return rb_f3(rb_dot(m.r0, v), rb_dot(m.r1, v), rb_dot(m.r2, v)); }

RB_FN rb_mat3 rb_mat3_transpose(rb_mat3 m)
{
    return rb_mat3_rows(rb_f3(m.r0.x, m.r1.x, m.r2.x), rb_f3(m.r0.y, m.r1.y, m.r2.y), rb_f3(m.r0.z, m.r1.z, m.r2.z));
}

RB_FN rb_mat3 rb_mat3_mul(rb_mat3 a, rb_mat3 b)
{
    rb_mat3 bt = rb_mat3_transpose(b);
    return rb_mat3_rows(rb_f3(rb_dot(a.r0, bt.r0), rb_dot(a.r0, bt.r1), rb_dot(a.r0, bt.r2)),
                        rb_f3(rb_dot(a.r1, bt.r0), rb_dot(a.r1, bt.r1), rb_dot(a.r1, bt.r2)),
                        rb_f3(rb_dot(a.r2, bt.r0), rb_dot(a.r2, bt.r1), rb_dot(a.r2, bt.r2)));
}

RB_FN rb_mat3 rb_mat3_from_quat(rb_float4 q)
{
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    return rb_mat3_rows(rb_f3(1.0f - 2.0f * (yy + zz), 2.0f * (xy - wz), 2.0f * (xz + wy)),
                        rb_f3(2.0f * (xy + wz), 1.0f - 2.0f * (xx + zz), 2.0f * (yz - wx)),
                        rb_f3(2.0f * (xz - wy), 2.0f * (yz + wx), 1.0f - 2.0f * (xx + yy)));
}

// Symmetric matrix from (xx, yy, zz) and (xy, xz, yz).
RB_FN rb_mat3 rb_mat3_symmetric(rb_float3 d, rb_float3 o)
{
    return rb_mat3_rows(rb_f3(d.x, o.x, o.y), rb_f3(o.x, d.y, o.z), rb_f3(o.y, o.z, d.z));
}

// Tensor in the world frame: R I R^T.
RB_FN rb_mat3 rb_mat3_rotate_tensor(rb_float4 q, rb_mat3 body_tensor)
{
    rb_mat3 r = rb_mat3_from_quat(q);
    return rb_mat3_mul(rb_mat3_mul(r, body_tensor), rb_mat3_transpose(r));
}

RB_FN float rb_mat3_det(rb_mat3 m) { return rb_dot(m.r0, rb_cross(m.r1, m.r2)); }

// Inverse; a singular matrix gives zero (used for "infinite inertia" about locked axes). The test is
// relative to the size of the rows, so the tiny inertia of a millimetre grain still inverts.
RB_FN rb_mat3 rb_mat3_inverse(rb_mat3 m)
{
    rb_float3 c0 = rb_cross(m.r1, m.r2);
    rb_float3 c1 = rb_cross(m.r2, m.r0);
    rb_float3 c2 = rb_cross(m.r0, m.r1);
    float det = rb_dot(m.r0, c0);
    float scale = rb_len(m.r0) * rb_len(m.r1) * rb_len(m.r2);
    if (!(rb_fabsf(det) > 1e-7f * scale))
        return rb_mat3_zero();
    float inv = 1.0f / det;
    // rows of the inverse are the columns of [c0 c1 c2] / det
    return rb_mat3_rows(rb_scale(rb_f3(c0.x, c1.x, c2.x), inv), rb_scale(rb_f3(c0.y, c1.y, c2.y), inv),
                        rb_scale(rb_f3(c0.z, c1.z, c2.z), inv));
}

// ---- rigid transforms ----

RB_FN rb_xform rb_xform_make(rb_float3 p, rb_float4 q)
{
    rb_xform t;
    t.p = p;
    t.q = q;
    return t;
}

RB_FN rb_float3 rb_xform_point(rb_xform t, rb_float3 v) { return rb_add(rb_rotate(t.q, v), t.p); }
RB_FN rb_float3 rb_xform_inv_point(rb_xform t, rb_float3 v) { return rb_inv_rotate(t.q, rb_sub(v, t.p)); }

// a * b: first b, then a.
RB_FN rb_xform rb_xform_mul(rb_xform a, rb_xform b)
{
    return rb_xform_make(rb_xform_point(a, b.p), rb_quat_normalize(rb_quat_mul(a.q, b.q)));
}

#endif
