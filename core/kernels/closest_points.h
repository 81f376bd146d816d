// Closest points between points and segments (Ericson, Real-Time Collision Detection, §5.1).
#ifndef RB_KERNELS_CLOSEST_POINTS_H
#define RB_KERNELS_CLOSEST_POINTS_H

#include "vec_math.h"

// Parameter t in [0, 1] of the point of segment [a, b] closest to p.
RB_FN float rb_segment_closest_t(rb_float3 p, rb_float3 a, rb_float3 b)
{
    rb_float3 ab = rb_sub(b, a);
    float l2 = rb_dot(ab, ab);
    if (l2 <= 1e-20f)
        return 0.0f;
    return rb_clampf(rb_dot(rb_sub(p, a), ab) / l2, 0.0f, 1.0f);
}

RB_FN rb_float3 rb_segment_closest_point(rb_float3 p, rb_float3 a, rb_float3 b)
{
    return rb_lerp3(a, b, rb_segment_closest_t(p, a, b));
}

// Closest points c1 = p1 + s (q1 - p1) and c2 = p2 + t (q2 - p2) of two segments. For parallel
// segments the result is one of the closest pairs (s chosen at the start of the overlap).
RB_FN void rb_segment_segment_closest_general(rb_float3 p1, rb_float3 q1, rb_float3 p2, rb_float3 q2,
                                      float *s_out, float *t_out, rb_float3 *c1, rb_float3 *c2)
{
    const float eps = 1e-12f;
    rb_float3 d1 = rb_sub(q1, p1);
    rb_float3 d2 = rb_sub(q2, p2);
    rb_float3 r = rb_sub(p1, p2);
    float a = rb_dot(d1, d1);
    float e = rb_dot(d2, d2);
    float f = rb_dot(d2, r);
    float s, t;
    if (a <= eps && e <= eps) {
        s = 0.0f;
        t = 0.0f;
    } else if (a <= eps) {
        s = 0.0f;
        t = rb_clampf(f / e, 0.0f, 1.0f);
    } else {
        float c = rb_dot(d1, r);
        if (e <= eps) {
            t = 0.0f;
            s = rb_clampf(-c / a, 0.0f, 1.0f);
        } else {
            float b = rb_dot(d1, d2);
            float denom = a * e - b * b;
            // parallel: denom ~ 0, pick s = 0 and clamp t; then recompute s from t
            s = denom > eps * a * e ? rb_clampf((b * f - c * e) / denom, 0.0f, 1.0f) : 0.0f;
            t = (b * s + f) / e;
            if (t < 0.0f) {
                t = 0.0f;
                s = rb_clampf(-c / a, 0.0f, 1.0f);
            } else if (t > 1.0f) {
                t = 1.0f;
                s = rb_clampf((b - c) / a, 0.0f, 1.0f);
            }
        }
    }
    *s_out = s;
    *t_out = t;
    *c1 = rb_mad(p1, s, d1);
    *c2 = rb_mad(p2, t, d2);
}

// Nearly parallel segments make the divisor of the general solution rounding noise (in float, below
// sin(angle) ~ 1e-3), and its answer can be off by length x angle. There the closest pair is one of
// the four end-point-to-segment pairs, which are exact; the best of them is taken.
RB_FN void rb_segment_segment_closest(rb_float3 p1, rb_float3 q1, rb_float3 p2, rb_float3 q2, float *s_out,
                                      float *t_out, rb_float3 *c1, rb_float3 *c2)
{
    rb_segment_segment_closest_general(p1, q1, p2, q2, s_out, t_out, c1, c2);
    rb_float3 d1 = rb_sub(q1, p1), d2 = rb_sub(q2, p2);
    float a = rb_dot(d1, d1), e = rb_dot(d2, d2), b = rb_dot(d1, d2);
    if (!(a * e - b * b <= 1e-4f * a * e) || a <= 1e-12f || e <= 1e-12f)
        return;
    float best = rb_len_sq(rb_sub(*c1, *c2));
    for (int k = 0; k < 4; ++k) {
        float s, t;
        if (k < 2) { // an end of segment 1 against segment 2
            s = (float)k;
            t = rb_segment_closest_t(rb_mad(p1, s, d1), p2, q2);
        } else {     // an end of segment 2 against segment 1
            t = (float)(k - 2);
            s = rb_segment_closest_t(rb_mad(p2, t, d2), p1, q1);
        }
        rb_float3 x1 = rb_mad(p1, s, d1), x2 = rb_mad(p2, t, d2);
        float d = rb_len_sq(rb_sub(x1, x2));
        if (d < best) {
            best = d;
            *s_out = s;
            *t_out = t;
            *c1 = x1;
            *c2 = x2;
        }
    }
}

// Clips the segment p0 + t dl, t in [*t0, *t1], to one side plane of a face, written as t den <= num;
// the end it moves takes the plane's feature id `side` (*c0 or *c1). Returns 0 when the segment runs
// parallel to the plane outside it (nothing left); an empty range (*t0 > *t1) is the caller's to test
// after the last plane.
RB_FN int rb_clip_segment_side(float num, float den, unsigned int side, float *t0, float *t1, unsigned int *c0,
                               unsigned int *c1)
{
    if (den == 0.0f)
        return num < 0.0f ? 0 : 1;
    float t = num / den;
    if (den > 0.0f) {
        if (t < *t1) {
            *t1 = t;
            *c1 = side;
        }
    } else if (t > *t0) {
        *t0 = t;
        *c0 = side;
    }
    return 1;
}

#endif
