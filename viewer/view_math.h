// Vector, quaternion and 4x4 matrix helpers of the viewer (float; matrices column-major, as GL reads
// them). Vectors and quaternions are the public rb_vec3 / rb_quat.
#ifndef RUBBLE_VIEW_MATH_H
#define RUBBLE_VIEW_MATH_H

#include <math.h>

#include "rubble.h"

#define VM_PI 3.14159265358979f

static inline rb_vec3 vm_vec3(float x, float y, float z) { return (rb_vec3){x, y, z}; }
static inline rb_vec3 vm_add(rb_vec3 a, rb_vec3 b) { return vm_vec3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline rb_vec3 vm_sub(rb_vec3 a, rb_vec3 b) { return vm_vec3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline rb_vec3 vm_scale(rb_vec3 a, float s) { return vm_vec3(a.x * s, a.y * s, a.z * s); }
static inline rb_vec3 vm_mad(rb_vec3 a, float s, rb_vec3 b) { return vm_vec3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline float vm_dot(rb_vec3 a, rb_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline rb_vec3 vm_cross(rb_vec3 a, rb_vec3 b)
{
    return vm_vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float vm_len(rb_vec3 a) { return sqrtf(vm_dot(a, a)); }
static inline rb_vec3 vm_normalize(rb_vec3 a)
{
    float l = vm_len(a);
    return l > 0.0f ? vm_scale(a, 1.0f / l) : vm_vec3(0.0f, 1.0f, 0.0f);
}
static inline rb_vec3 vm_min(rb_vec3 a, rb_vec3 b) { return vm_vec3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z)); }
static inline rb_vec3 vm_max(rb_vec3 a, rb_vec3 b) { return vm_vec3(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z)); }

static inline rb_quat vm_quat_mul(rb_quat a, rb_quat b)
{
    return (rb_quat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                     a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
static inline rb_quat vm_quat_conj(rb_quat q) { return (rb_quat){-q.x, -q.y, -q.z, q.w}; }
// q v q*
static inline rb_vec3 vm_rotate(rb_quat q, rb_vec3 v)
{
    rb_vec3 u = vm_vec3(q.x, q.y, q.z);
    rb_vec3 t = vm_scale(vm_cross(u, v), 2.0f);
    return vm_add(vm_add(v, vm_scale(t, q.w)), vm_cross(u, t));
}
static inline rb_vec3 vm_inv_rotate(rb_quat q, rb_vec3 v) { return vm_rotate(vm_quat_conj(q), v); }

// a * b: first b, then a.
static inline rb_transform vm_transform_mul(rb_transform a, rb_transform b)
{
    return (rb_transform){vm_add(a.p, vm_rotate(a.q, b.p)), vm_quat_mul(a.q, b.q)};
}
static inline rb_vec3 vm_transform_point(rb_transform t, rb_vec3 v) { return vm_add(t.p, vm_rotate(t.q, v)); }
static inline rb_vec3 vm_transform_inv_point(rb_transform t, rb_vec3 v) { return vm_inv_rotate(t.q, vm_sub(v, t.p)); }

// Shortest rotation taking unit vector `from` to unit vector `to`.
static inline rb_quat vm_quat_from_to(rb_vec3 from, rb_vec3 to)
{
    float d = vm_dot(from, to);
    if (d < -0.999999f) {
        // opposite: half turn about any axis perpendicular to `from`
        rb_vec3 axis = vm_cross(vm_vec3(1, 0, 0), from);
        if (vm_dot(axis, axis) < 1e-6f)
            axis = vm_cross(vm_vec3(0, 0, 1), from);
        axis = vm_normalize(axis);
        return (rb_quat){axis.x, axis.y, axis.z, 0.0f};
    }
    rb_vec3 c = vm_cross(from, to);
    float s = sqrtf((1.0f + d) * 2.0f);
    return (rb_quat){c.x / s, c.y / s, c.z / s, 0.5f * s};
}

typedef struct vm_mat4 {
    float m[16]; // column-major: m[col * 4 + row]
} vm_mat4;

static inline vm_mat4 vm_mat4_mul(vm_mat4 a, vm_mat4 b)
{
    vm_mat4 r;
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row) {
            float s = 0.0f;
            for (int k = 0; k < 4; ++k)
                s += a.m[k * 4 + row] * b.m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

// (x, y, z, 1) through m; writes the homogeneous result.
static inline void vm_mat4_transform(vm_mat4 m, rb_vec3 p, float out[4])
{
    for (int row = 0; row < 4; ++row)
        out[row] = m.m[0 * 4 + row] * p.x + m.m[1 * 4 + row] * p.y + m.m[2 * 4 + row] * p.z + m.m[3 * 4 + row];
}

// OpenGL perspective (clip z in [-w, w]); fov_y in radians.
static inline vm_mat4 vm_perspective(float fov_y, float aspect, float near_z, float far_z)
{
    float f = 1.0f / tanf(0.5f * fov_y);
    vm_mat4 r = {{0}};
    r.m[0] = f / aspect;
    r.m[5] = f;
    r.m[10] = (far_z + near_z) / (near_z - far_z);
    r.m[11] = -1.0f;
    r.m[14] = 2.0f * far_z * near_z / (near_z - far_z);
    return r;
}

// View matrix of an eye at `eye` with orthonormal basis (right, up, forward); the camera looks
// along +forward, i.e. -z in view space.
static inline vm_mat4 vm_view_from_basis(rb_vec3 eye, rb_vec3 right, rb_vec3 up, rb_vec3 forward)
{
    vm_mat4 r = {{0}};
    r.m[0] = right.x, r.m[4] = right.y, r.m[8] = right.z;
    r.m[1] = up.x, r.m[5] = up.y, r.m[9] = up.z;
    r.m[2] = -forward.x, r.m[6] = -forward.y, r.m[10] = -forward.z;
    r.m[12] = -vm_dot(right, eye);
    r.m[13] = -vm_dot(up, eye);
    r.m[14] = vm_dot(forward, eye);
    r.m[15] = 1.0f;
    return r;
}

#endif
