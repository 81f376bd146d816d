// Narrow phase: capsule against capsule.
#ifndef RB_KERNELS_COLLIDE_CAPSULE_CAPSULE_H
#define RB_KERNELS_COLLIDE_CAPSULE_CAPSULE_H

#include "closest_points.h"
#include "collide_sphere_capsule.h"

// Axes count as parallel (and overlapping capsules get two points) below this sin^2 of the angle
// between them: 1e-4, i.e. 0.01 rad (0.57 degrees). Within it the second point's separation, measured
// along the shared normal rather than its own closest direction, is off by at most
// (overlap * 0.01)^2 / (2 * distance): second order.
#define RB_CAPSULE_PARALLEL_SIN_SQ 1e-4f

// Which part of a segment a closest-point parameter lies on: 0 = start, 1 = interior, 2 = end.
RB_FN unsigned int rb_segment_region(float s) { return s <= 0.0f ? 0u : (s >= 1.0f ? 2u : 1u); }

// Feature id of a contact between a region of segment A and a region of segment B (0 .. 8).
RB_FN unsigned int rb_capsule_pair_id(unsigned int region_a, unsigned int region_b) { return region_a * 3u + region_b; }

// Normal for cores that coincide, with no direction of their own: perpendicular to B's axis (B's local
// x) when B has a segment, else minus A's local x, else (0, 1, 0) as for two spheres. This keeps a
// zero-length capsule A identical to a sphere in rb_collide_sphere_capsule.
RB_FN rb_float3 rb_capsule_pair_fallback(const rb_geom *a, const rb_geom *b)
{
    if (b->params.x > 0.0f)
        return rb_rotate(b->xf.q, rb_f3(1.0f, 0.0f, 0.0f));
    if (a->params.x > 0.0f)
        return rb_rotate(a->xf.q, rb_f3(-1.0f, 0.0f, 0.0f));
    return rb_default_contact_normal();
}

// Capsule A against capsule B (params = (half_length, radius), segment along local y).
// - In general one point, between the closest points of the two segments; feature id
//   rb_capsule_pair_id(region on A, region on B).
// - Axes parallel within RB_CAPSULE_PARALLEL_SIN_SQ and overlapping along A's axis: B's segment is
//   clipped to the extent of A's and each end of the clipped piece gives a point (lower end along A's
//   axis first), sharing the normal of the closest points; each point's separation is measured along
//   it. Its id names the features that bound the piece: a B end over A's interior, or an A end over
//   B's interior.
// - Axes that intersect: normal ua x ub (ua, ub: the unit axes); coincident axes: see
//   rb_capsule_pair_fallback(). Zero-length capsules behave as spheres.
RB_FN void rb_collide_capsule_capsule(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_float3 a0, a1, ua, b0, b1, ub;
    rb_capsule_segment(a, &a0, &a1, &ua);
    rb_capsule_segment(b, &b0, &b1, &ub);
    float ra = a->params.y;
    float rb = b->params.y;
    float la = rb_len(rb_sub(a1, a0));
    float lb = rb_len(rb_sub(b1, b0));
    // segments, as rb_segment_segment_closest counts them (squared length above 1e-12)
    int seg_a = la * la > 1e-12f;
    int seg_b = lb * lb > 1e-12f;

    float s, t;
    rb_float3 c1, c2;
    // exact for nearly parallel axes too (it falls back to the end-point pairs there)
    rb_segment_segment_closest(a0, a1, b0, b1, &s, &t, &c1, &c2);
    rb_float3 d = rb_sub(c2, c1);
    rb_float3 w = rb_cross(ua, ub);
    float sin_sq = rb_dot(w, w);
    int parallel = seg_a && seg_b && sin_sq <= RB_CAPSULE_PARALLEL_SIN_SQ;
    rb_float3 fallback = rb_capsule_pair_fallback(a, b);
    // Drop the rounding noise in the components of d known to be zero, so that touching or crossing
    // axes are recognised and get a normal that actually separates the capsules.
    int s_in = s > 0.0f && s < 1.0f;
    int t_in = t > 0.0f && t < 1.0f;
    if (s_in && t_in && !parallel) {
        // interior closest points of skew segments: the offset lies along ua x ub, which is also the
        // normal when the axes intersect (any side is as deep; swapping A and B flips it)
        w = rb_scale(w, 1.0f / rb_sqrtf(sin_sq));
        d = rb_scale(w, rb_dot(d, w));
        fallback = w;
    } else if (s_in) {
        d = rb_mad(d, -rb_dot(d, ua), ua);
    } else if (t_in) {
        d = rb_mad(d, -rb_dot(d, ub), ub);
    }

    if (parallel) {
        // B's ends as coordinates along A's axis, A spanning [0, la]
        float tb0 = rb_dot(rb_sub(b0, a0), ua);
        float tb1 = rb_dot(rb_sub(b1, a0), ua);
        int fwd = tb0 <= tb1;
        float tmin = fwd ? tb0 : tb1;
        float tmax = fwd ? tb1 : tb0;
        float lo = rb_maxf(tmin, 0.0f);
        float hi = rb_minf(tmax, la);
        if (hi - lo > 1e-3f * rb_minf(la, lb)) {
            // the shared normal is that of the closest points, so the deepest point is exact
            float d2 = rb_dot(d, d);
            rb_float3 n = d2 > RB_COINCIDENT_DIST_SQ ? rb_scale(d, 1.0f / rb_sqrtf(d2)) : fallback;
            rb_float3 blo = fwd ? b0 : b1;
            rb_float3 bhi = fwd ? b1 : b0;
            float inv = 1.0f / (tmax - tmin);  // tmax - tmin >= lb * cos(0.01) > 0
            // ids: the lower end of the piece is B's end `blo` (region 0 if fwd, else 2) over A's
            // interior, or A's start over B's interior; the upper end likewise with `bhi` / A's end
            unsigned int id_lo = tmin > 0.0f ? rb_capsule_pair_id(1u, fwd ? 0u : 2u) : rb_capsule_pair_id(0u, 1u);
            unsigned int id_hi = tmax < la ? rb_capsule_pair_id(1u, fwd ? 2u : 0u) : rb_capsule_pair_id(2u, 1u);
            m->normal = n;
            int count = 0;
            for (int k = 0; k < 2; ++k) {
                float x = k == 0 ? lo : hi;
                rb_float3 va = rb_mad(a0, x, ua);                        // on A's axis
                rb_float3 vb = rb_lerp3(blo, bhi, (x - tmin) * inv);     // on B's axis, level with va
                float sep = rb_dot(rb_sub(vb, va), n) - ra - rb;
                if (sep < margin) {
                    // A's surface va + n ra, B's surface vb - n rb; midway
                    rb_float3 p = rb_add(rb_mad(va, ra, n), rb_mad(vb, -rb, n));
                    m->points[count].point = rb_scale(p, 0.5f);
                    m->points[count].separation = sep;
                    m->points[count].id = k == 0 ? id_lo : id_hi;
                    ++count;
                }
            }
            m->count = count;
            return;
        }
    }

    unsigned int id = rb_capsule_pair_id(rb_segment_region(s), rb_segment_region(t));
    rb_contact_rounded(c1, ra, c2, rb, d, fallback, margin, id, m);
}

#endif
