// Candidate pairs of the broad phase: which two shapes may pair, and the pair's canonical form. Both
// broad phases (backend-cpu/broad_phase.c, backend-gpu/kernels/device_broad_phase.h) find the
// overlapping boxes their own way and decide with these, so they find the same set.
#ifndef RB_KERNELS_PAIR_H
#define RB_KERNELS_PAIR_H

#include "body_flags.h"
#include "vec_math.h"

typedef struct rb_pair {
    int shape_a; // shape_a < shape_b
    int shape_b;
} rb_pair;

// Pairs are stored with the lower shape slot first (the order every list of pairs and manifolds is
// sorted in).
RB_FN rb_pair rb_pair_make(int a, int b)
{
    rb_pair p;
    p.shape_a = rb_mini(a, b);
    p.shape_b = rb_maxi(a, b);
    return p;
}

// (a0, b0) before (a1, b1) in the canonical order.
RB_FN int rb_pair_less(int a0, int b0, int a1, int b1) { return a0 < a1 || (a0 == a1 && b0 < b1); }

// A shape takes part in the broad phase unless its slot is free or its body is frozen.
RB_FN int rb_shape_in_broad_phase(int i, RB_GLOBAL const int *shape_body, RB_GLOBAL const unsigned int *body_flags)
{
    int b = shape_body[i];
    return b >= 0 && !(body_flags[b] & RB_BODY_FROZEN);
}

// What a shape's body brings to a pair: a pair needs a dynamic body and an awake one (a pair of two
// sleeping bodies, or of a sleeping and a static one, has nothing to do). With include_sleeping (the
// sequential solver sees every contact) a sleeping dynamic body counts as awake. Shapes that are not
// rb_shape_in_broad_phase never get as far as this.
#define RB_PAIR_KIND_DYNAMIC 0x1u
#define RB_PAIR_KIND_AWAKE 0x2u
#define RB_PAIR_KIND_PAIRABLE (RB_PAIR_KIND_DYNAMIC | RB_PAIR_KIND_AWAKE)

RB_FN unsigned int rb_pair_kind(unsigned int body_flags, int include_sleeping)
{
    int dynamic = rb_is_dynamic_flags(body_flags);
    return (dynamic ? RB_PAIR_KIND_DYNAMIC : 0u) |
           ((body_flags & RB_BODY_AWAKE) || (include_sleeping && dynamic) ? RB_PAIR_KIND_AWAKE : 0u);
}

// The pair rules other than overlap: different bodies, one of them dynamic and one of them awake
// (rb_pair_kind), and each filter's category meets the other's mask.
RB_FN int rb_pair_allowed(int body_a, unsigned int kind_a, unsigned int category_a, unsigned int mask_a, int body_b,
                          unsigned int kind_b, unsigned int category_b, unsigned int mask_b)
{
    return body_a != body_b && ((kind_a | kind_b) & RB_PAIR_KIND_PAIRABLE) == RB_PAIR_KIND_PAIRABLE &&
           (category_a & mask_b) != 0u && (category_b & mask_a) != 0u;
}

// rb_pair_allowed for shapes a and b, read from the scene's arrays (filter: 2 per shape, category
// then mask).
RB_FN int rb_shapes_may_pair(int a, int b, RB_GLOBAL const int *shape_body, RB_GLOBAL const unsigned int *body_flags,
                             RB_GLOBAL const unsigned int *filter, int include_sleeping)
{
    int ba = shape_body[a], bb = shape_body[b];
    return rb_pair_allowed(ba, rb_pair_kind(body_flags[ba], include_sleeping), filter[2 * a], filter[2 * a + 1], bb,
                           rb_pair_kind(body_flags[bb], include_sleeping), filter[2 * b], filter[2 * b + 1]);
}

// Two boxes overlap, touching included (x, y, z; w is not part of a box). Written with <= only, so a
// NaN bound overlaps nothing.
RB_FN int rb_aabb_overlap(rb_float4 alo, rb_float4 ahi, rb_float4 blo, rb_float4 bhi)
{
    return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y && alo.z <= bhi.z && blo.z <= ahi.z;
}

// A box and a world plane (n, offset) may touch: the box's lowest corner along n is at or below the
// plane's offset.
RB_FN int rb_aabb_reaches_plane(rb_float4 lo, rb_float4 hi, rb_float4 plane)
{
    float x = plane.x > 0.0f ? lo.x : hi.x;
    float y = plane.y > 0.0f ? lo.y : hi.y;
    float z = plane.z > 0.0f ? lo.z : hi.z;
    return plane.x * x + plane.y * y + plane.z * z <= plane.w;
}

#endif
