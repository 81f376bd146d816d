// Reduce a set of candidate contact points to at most four that keep the contact area's extent:
// the deepest point, the one farthest from it, then the two that add the most area.
#ifndef RB_KERNELS_MANIFOLD_REDUCE_H
#define RB_KERNELS_MANIFOLD_REDUCE_H

#include "manifold.h"

// Largest candidate count the narrow-phase routines produce (a quad clipped by four planes gives 8;
// a box has 8 vertices).
#define RB_MAX_CANDIDATE_POINTS 16

// Area (times 2) of triangle (a, b, c) projected on the normal; signed by winding about n.
RB_FN float rb_signed_area2(rb_float3 a, rb_float3 b, rb_float3 c, rb_float3 n)
{
    return rb_dot(rb_cross(rb_sub(b, a), rb_sub(c, a)), n);
}

// Keeps candidates in a deterministic order: ties go to the lower index. `cand` has n <= 16 points.
RB_FN void rb_manifold_reduce(const rb_manifold_point *cand, int n, rb_float3 normal, rb_manifold *out)
{
    out->normal = normal;
    if (n <= RB_MAX_MANIFOLD_POINTS) {
        out->count = n;
        for (int i = 0; i < n; ++i)
            out->points[i] = cand[i];
        return;
    }
    int used[RB_MAX_CANDIDATE_POINTS];
    for (int i = 0; i < RB_MAX_CANDIDATE_POINTS; ++i)
        used[i] = 0;

    // 1. deepest
    int i0 = 0;
    for (int i = 1; i < n; ++i)
        if (cand[i].separation < cand[i0].separation)
            i0 = i;
    used[i0] = 1;
    rb_float3 p0 = cand[i0].point;

    // 2. farthest from the deepest
    int i1 = -1;
    float best = -1.0f;
    for (int i = 0; i < n; ++i) {
        if (used[i])
            continue;
        float d = rb_len_sq(rb_sub(cand[i].point, p0));
        if (d > best) {
            best = d;
            i1 = i;
        }
    }
    used[i1] = 1;
    rb_float3 p1 = cand[i1].point;

    // 3. largest triangle with p0, p1 (either side)
    int i2 = -1;
    best = -1.0f;
    float side = 1.0f;
    for (int i = 0; i < n; ++i) {
        if (used[i])
            continue;
        float a = rb_signed_area2(p0, p1, cand[i].point, normal);
        if (rb_fabsf(a) > best) {
            best = rb_fabsf(a);
            i2 = i;
            side = a >= 0.0f ? 1.0f : -1.0f;
        }
    }
    used[i2] = 1;
    rb_float3 p2 = cand[i2].point;

    // 4. the point farthest outside the triangle (most area added), on any of its three edges
    int i3 = -1;
    best = -RB_FLT_MAX;
    for (int i = 0; i < n; ++i) {
        if (used[i])
            continue;
        rb_float3 p = cand[i].point;
        // outside an edge means the triangle (edge, p) winds against the triangle (p0, p1, p2)
        float a01 = -side * rb_signed_area2(p0, p1, p, normal);
        float a12 = -side * rb_signed_area2(p1, p2, p, normal);
        float a20 = -side * rb_signed_area2(p2, p0, p, normal);
        float a = rb_maxf(a01, rb_maxf(a12, a20));
        if (a > best) {
            best = a;
            i3 = i;
        }
    }

    out->count = 4;
    out->points[0] = cand[i0];
    out->points[1] = cand[i1];
    out->points[2] = cand[i2];
    out->points[3] = cand[i3];
}

#endif
