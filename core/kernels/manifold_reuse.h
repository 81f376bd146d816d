// Reusing a pair's manifold while its shapes have hardly moved relative to each other (Jolt's body
// pair cache, PhysX's contact cache): the points found at a reference pose are kept as their ends on
// each shape, in the shape's own frame, and replayed at the current poses, which measures each kept
// point's separation exactly; only which features touch is taken from the reference. Box-box
// clipping is the costly part of the narrow phase (a quarter of the `boxes` frame), and in a resting
// stack or heap almost no pair moves that much from one step to the next. It also steadies them: a
// box face on a face lies near a tie between separating axes and clip features, where a fresh
// clipping flips from step to step; the 20-box `stack` walked 9 cm in 10 s that way, 0.2 mm now.
//
// Only pairs of boxes, planes and sharp hulls are reused: a round shape's normal follows the relative position, and
// its collision is cheap anyway. The limits bound what a replay can miss: a feature that would start to
// touch after B turned by half a degree is at most 9 mm away per metre of contact, inside the
// speculative margin (2 cm). Measured against fresh collisions at every step of 1000 boxes falling into
// a heap (tests/test_manifold_reuse.c): one comparison in 8,000 differs by more than 1 mm or 5 degrees
// (another axis at such a tie; the worst by 4 mm). Half these limits halved the worst difference but
// reused less, and left the batched solver's pyramid creeping twice as fast (it creeps either way).
#ifndef RB_KERNELS_MANIFOLD_REUSE_H
#define RB_KERNELS_MANIFOLD_REUSE_H

#include "narrow_phase.h"

#define RB_REUSE_DISTANCE 1e-3f // m, of B's origin in A's frame since the reference
#define RB_REUSE_COS_HALF_ANGLE 0.99999048f // cos(0.25 deg): B turned at most 0.5 deg in A's frame

typedef struct rb_manifold_ref {
    rb_float4 q;      // B's shape rotation in A's shape frame at the reference
    rb_float3 p;      // B's shape origin in A's shape frame
    rb_float3 normal; // in A's frame
    rb_float3 end_a[RB_MAX_MANIFOLD_POINTS]; // each point's end on A, in A's frame
    rb_float3 end_b[RB_MAX_MANIFOLD_POINTS]; // and on B, in B's frame
    int valid;        // 0: not reusable (a round shape, or no reference yet)
} rb_manifold_ref;

// Flat-sided shapes: boxes, planes and sharp (unrounded) hulls.
RB_FN int rb_reusable_shape(int type, rb_float4 params)
{
    return type == RB_GEOM_BOX || type == RB_GEOM_PLANE || (type == RB_GEOM_CONVEX && params.x == 0.0f);
}

RB_FN int rb_reusable_pair(int type_a, rb_float4 params_a, int type_b, rb_float4 params_b)
{
    return rb_reusable_shape(type_a, params_a) && rb_reusable_shape(type_b, params_b);
}

// The reference of manifold m, found with the shapes at xa and xb.
RB_FN void rb_manifold_ref_make(const rb_manifold *m, rb_xform xa, rb_xform xb, rb_manifold_ref *r)
{
    r->q = rb_quat_mul(rb_quat_conj(xa.q), xb.q);
    r->p = rb_xform_inv_point(xa, xb.p);
    r->normal = rb_inv_rotate(xa.q, m->normal);
    for (int i = 0; i < m->count; ++i) {
        rb_float3 x = m->points[i].point;
        float half_sep = 0.5f * m->points[i].separation;
        r->end_a[i] = rb_xform_inv_point(xa, rb_mad(x, -half_sep, m->normal));
        r->end_b[i] = rb_xform_inv_point(xb, rb_mad(x, half_sep, m->normal));
    }
    r->valid = 1;
}

// Whether B is still within the limits of the reference pose, relative to A.
RB_FN int rb_manifold_ref_fits(RB_GLOBAL const rb_manifold_ref *r, rb_xform xa, rb_xform xb)
{
    rb_float3 p = rb_xform_inv_point(xa, xb.p);
    if (rb_len_sq(rb_sub(p, r->p)) > RB_REUSE_DISTANCE * RB_REUSE_DISTANCE)
        return 0;
    rb_float4 q = rb_quat_mul(rb_quat_conj(xa.q), xb.q);
    float d = q.x * r->q.x + q.y * r->q.y + q.z * r->q.z + q.w * r->q.w;
    return rb_fabsf(d) >= RB_REUSE_COS_HALF_ANGLE;
}

// Manifold `old` (found at reference r) at the shapes' current poses: the same features, their points
// midway between the replayed ends, the separations measured along the replayed normal.
RB_FN void rb_manifold_replay(RB_GLOBAL const rb_manifold *old, RB_GLOBAL const rb_manifold_ref *r, rb_xform xa,
                              rb_xform xb, rb_manifold *out)
{
    *out = *old;
    rb_float3 n = rb_rotate(xa.q, r->normal);
    out->normal = n;
    for (int i = 0; i < old->count; ++i) {
        rb_float3 ea = rb_xform_point(xa, r->end_a[i]), eb = rb_xform_point(xb, r->end_b[i]);
        out->points[i].point = rb_scale(rb_add(ea, eb), 0.5f);
        out->points[i].separation = rb_dot(rb_sub(eb, ea), n);
    }
}

// rb_narrow_phase_pair, reusing last step's manifold `old` of the pair (with its reference old_ref)
// while the shapes stay within the limits; `ref` gets this step's reference (the old one when reused).
// The impulses and carried impacts go over point for point (the points are the same).
RB_FN int rb_narrow_phase_pair_reusing(rb_contact_manifold *m, rb_manifold_ref *ref, int a, int b, float margin,
                                       float h, RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                                       RB_GLOBAL const rb_xform *shape_world, RB_GLOBAL const rb_float4 *shape_params,
                                       RB_GLOBAL const rb_float4 *hull_pool, RB_GLOBAL const rb_float4 *plane_world,
                                       RB_GLOBAL const rb_float4 *shape_material,
                                       RB_GLOBAL const unsigned int *body_flags, RB_GLOBAL const rb_float4 *lin_vel,
                                       RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL const rb_float4 *local_center,
                                       RB_GLOBAL const rb_contact_manifold *old, RB_GLOBAL const rb_manifold_ref *old_ref)
{
    rb_xform xa = shape_world[a], xb = shape_world[b];
    if (old && old_ref && old_ref->valid && rb_manifold_ref_fits(old_ref, xa, xb)) {
        m->shape_a = a;
        m->shape_b = b;
        m->body_a = shape_body[a];
        m->body_b = shape_body[b];
        rb_manifold_replay(&old->m, old_ref, xa, xb, &m->m);
        rb_contact_manifold_materials(m, shape_material[a], shape_material[b]);
        for (int k = 0; k < old->m.count; ++k) {
            m->normal_impulse[k] = old->normal_impulse[k];
            m->friction_impulse[k] = old->friction_impulse[k];
            m->carried_impact[k] = old->carried_impact[k];
        }
        *ref = *old_ref;
        return m->m.count;
    }
    int n = rb_narrow_phase_pair(m, a, b, margin, h, shape_body, shape_type, shape_world, shape_params, hull_pool,
                                 plane_world,
                                 shape_material, body_flags, lin_vel, ang_vel, local_center, old);
    ref->valid = 0;
    if (n > 0 && rb_reusable_pair(shape_type[a], shape_params[a], shape_type[b], shape_params[b]))
        rb_manifold_ref_make(&m->m, xa, xb, ref);
    return n;
}

#endif
