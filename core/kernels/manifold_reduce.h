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

// Is candidate i a better pick than the current best, by `score` (larger wins)? Near-ties (relative
// 1e-4) go to the deeper point, then to the lower index, so flat faces keep their lowest points.
RB_FN int rb_reduce_better(float score, float best_score, float sep, float best_sep)
{
    float tol = 1e-4f * rb_maxf(rb_fabsf(score), rb_fabsf(best_score));
    if (score > best_score + tol)
        return 1;
    return score >= best_score - tol && sep < best_sep;
}

// First index not yet used (the fallback when every score is NaN).
RB_FN int rb_reduce_first_unused(const int *used, int n)
{
    for (int i = 0; i < n; ++i)
        if (!used[i])
            return i;
    return 0;
}

// Keeps candidates in a deterministic order: ties go to the deeper, then the lower index. `cand` has
// n <= 16 points. Distances and areas are measured in the contact plane: the spread of the support
// polygon is what keeps a resting body from tipping.
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

    // 2. farthest from the deepest, in the contact plane
    int i1 = -1;
    float best = 0.0f;
    for (int i = 0; i < n; ++i) {
        if (used[i])
            continue;
        rb_float3 d = rb_sub(cand[i].point, p0);
        d = rb_mad(d, -rb_dot(d, normal), normal);
        float score = rb_len_sq(d);
        if (i1 < 0 || rb_reduce_better(score, best, cand[i].separation, cand[i1].separation)) {
            best = score;
            i1 = i;
        }
    }
    if (!(best == best))
        i1 = rb_reduce_first_unused(used, n);
    used[i1] = 1;
    rb_float3 p1 = cand[i1].point;

    // 3. largest triangle with p0, p1 (either side)
    int i2 = -1;
    best = 0.0f;
    float side = 1.0f;
    for (int i = 0; i < n; ++i) {
        if (used[i])
            continue;
        float a = rb_signed_area2(p0, p1, cand[i].point, normal);
        if (i2 < 0 || rb_reduce_better(rb_fabsf(a), best, cand[i].separation, cand[i2].separation)) {
            best = rb_fabsf(a);
            i2 = i;
            side = a >= 0.0f ? 1.0f : -1.0f;
        }
    }
    if (!(best == best))
        i2 = rb_reduce_first_unused(used, n);
    used[i2] = 1;
    rb_float3 p2 = cand[i2].point;

    // 4. the point farthest outside the triangle (most area added), on any of its three edges
    int i3 = -1;
    best = 0.0f;
    for (int i = 0; i < n; ++i) {
        if (used[i])
            continue;
        rb_float3 p = cand[i].point;
        // outside an edge means the triangle (edge, p) winds against the triangle (p0, p1, p2)
        float a01 = -side * rb_signed_area2(p0, p1, p, normal);
        float a12 = -side * rb_signed_area2(p1, p2, p, normal);
        float a20 = -side * rb_signed_area2(p2, p0, p, normal);
        float a = rb_maxf(a01, rb_maxf(a12, a20));
        if (i3 < 0 || rb_reduce_better(a, best, cand[i].separation, cand[i3].separation)) {
            best = a;
            i3 = i;
        }
    }
    if (!(best == best))
        i3 = rb_reduce_first_unused(used, n);

    out->count = 4;
    out->points[0] = cand[i0];
    out->points[1] = cand[i1];
    out->points[2] = cand[i2];
    out->points[3] = cand[i3];
}

#endif
