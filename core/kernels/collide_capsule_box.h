// Capsule-box narrow phase. The capsule is its core segment [P0, P1] (P0 at -half_length along the
// capsule's local y, P1 at +half_length) swept by the radius r; all the work is done in the box's
// frame, where the box is the axis-aligned [-h, h].
//
// 1. Exact distance from the segment to the box. dist^2(t) of the segment point p(t), t in [0, 1],
//    is convex and piecewise quadratic: its pieces start and end where p(t) crosses a face plane of
//    the box (at most 6 crossings). Each piece's minimum is found in closed form and the smallest is
//    kept (ties to the lowest t), which gives the closest points s (segment) and q (box) without
//    iteration.
// 2. Segment outside the box (dist > RB_CAPSULE_BOX_TOUCH, 0.1 mm): the normal is (q - s) / dist,
//    which points from the capsule to the box, and the separation is dist - r; beyond `margin` there
//    is no contact. If that normal is within ~1 degree of a face normal of the box (|n . axis| >=
//    RB_CAPSULE_BOX_FACE_COS) the contact is a face contact (step 4): a capsule lying on a face, or
//    lying on it and reaching over its edge, gets 2 points; one standing on a face gets 1 (its upper
//    end is beyond the margin). The face contact is kept only if its deepest point is within
//    RB_CAPSULE_BOX_FACE_SLACK (0.5 mm) of dist - r: when s lies just beyond the face's rim (the
//    normal is then slightly off the face normal) the clip cuts s off, and along a steep segment the
//    cut is much higher. Otherwise (the closest box feature is an edge or a vertex, or the face contact
//    was rejected) it is one point midway between s + r n and q, separation dist - r.
// 3. Segment touching or inside the box: the closest points give no direction, so a separating-axis
//    test picks the axis of least penetration among the 3 face normals of the box and the 3 cross
//    products (segment direction x box edge); cross products shorter than 1e-3 (segment parallel to
//    that edge) are skipped, the faces cover them. As in box-box, a face wins unless the cross axis
//    separates more by RB_SAT_EDGE_TOL_ABS (2.5 mm, at most a tenth of the smallest of the
//    box's half extents and the radius) + RB_SAT_EDGE_TOL_REL (5%) |face separation|, so the
//    normal does not flip between a face and an edge from frame to frame. A face axis gives a face
//    contact (step 4); a cross axis gives one point between the segment and the box's support edge
//    along -n (rb_segment_segment_closest), separation = (q - s) . n - r.
// 4. Face contact, with the box face whose outward normal is -n: the segment is clipped to the face's
//    4 side planes (Liang-Barsky on the segment parameter) and each end of the clipped piece at height
//    hgt above the face gives separation hgt - r and the point s - (hgt + r)/2 (face normal), midway
//    between the capsule's surface and the face; ends with separation >= margin are dropped. Two ends
//    closer than RB_CAPSULE_BOX_MERGE along the face (a capsule standing upright) give one point, the
//    deeper. If nothing survives, step 2's single point (or, in step 3, the segment's closest point)
//    is used.
// The normal points from the capsule (A) to the box (B).
//
// Feature ids: face contact: (2 axis + (1 if the face is the -axis face)) << 4 | end, where end = 0 or
// 1 for an end of the segment (P0, P1) and 2 + plane (0..3) where a side plane cut the segment.
// Single point: 0x100 | capsule feature << 5 | box feature, capsule feature = 0 or 1 (P0, P1) or 2
// (between), box feature = sum over the axes k of 3^k (0 inside the slab, 1 beyond +h, 2 beyond -h):
// the box edge or vertex the point sits on.
#ifndef RB_KERNELS_COLLIDE_CAPSULE_BOX_H
#define RB_KERNELS_COLLIDE_CAPSULE_BOX_H

#include "closest_points.h"
#include "manifold.h"
#include "sat_tolerance.h"
#include "shape_geom.h"

#define RB_CAPSULE_BOX_TOUCH 1e-4f
#define RB_CAPSULE_BOX_FACE_COS 0.99985f
#define RB_CAPSULE_BOX_MERGE 1e-3f
#define RB_CAPSULE_BOX_FACE_SLACK 5e-4f

RB_FN rb_float3 rb_cb_clamp_box(rb_float3 p, rb_float3 h)
{
    return rb_f3(rb_clampf(p.x, -h.x, h.x), rb_clampf(p.y, -h.y, h.y), rb_clampf(p.z, -h.z, h.z));
}

// Parameter t of the point of segment p0 + t dl (t in [0, 1]) closest to the box [-h, h]; returns the
// squared distance.
RB_FN float rb_cb_segment_box_closest(rb_float3 p0, rb_float3 dl, rb_float3 h, float *t_out)
{
    float ts[8];
    int n = 0;
    ts[n++] = 0.0f;
    for (int k = 0; k < 3; ++k) {
        float dk = rb_get(dl, k);
        if (dk == 0.0f)
            continue;
        for (int side = 0; side < 2; ++side) {
            float bound = side == 0 ? rb_get(h, k) : -rb_get(h, k);
            float t = (bound - rb_get(p0, k)) / dk;
            if (t > 0.0f && t < 1.0f)
                ts[n++] = t;
        }
    }
    ts[n++] = 1.0f;
    // insertion sort, at most 8 values
    for (int i = 1; i < n; ++i) {
        for (int j = i; j > 0 && ts[j - 1] > ts[j]; --j) {
            float v = ts[j];
            ts[j] = ts[j - 1];
            ts[j - 1] = v;
        }
    }
    float best = RB_FLT_MAX, best_t = 0.0f;
    for (int i = 0; i + 1 < n; ++i) {
        float ta = ts[i], tb = ts[i + 1];
        rb_float3 pm = rb_mad(p0, 0.5f * (ta + tb), dl);
        // on this piece dist^2(t) = sum over the axes outside the slab of (p0 - bound + t dl)^2
        float qa = 0.0f, qb = 0.0f;
        for (int k = 0; k < 3; ++k) {
            float x = rb_get(pm, k), hk = rb_get(h, k);
            if (x > hk || x < -hk) {
                float dk = rb_get(dl, k);
                float e = rb_get(p0, k) - (x > hk ? hk : -hk);
                qa += dk * dk;
                qb += dk * e;
            }
        }
        float t = qa > 0.0f ? rb_clampf(-qb / qa, ta, tb) : ta;
        rb_float3 p = rb_mad(p0, t, dl);
        float f = rb_len_sq(rb_sub(p, rb_cb_clamp_box(p, h)));
        if (f < best) {
            best = f;
            best_t = t;
        }
    }
    *t_out = best_t;
    return best;
}

RB_FN unsigned int rb_cb_box_feature(rb_float3 p, rb_float3 h)
{
    unsigned int code = 0, w = 1;
    for (int k = 0; k < 3; ++k) {
        float x = rb_get(p, k), hk = rb_get(h, k);
        code += w * (x > hk ? 1u : (x < -hk ? 2u : 0u));
        w *= 3u;
    }
    return code;
}

// Feature code of the box edge along `axis` through the corner signs of e (same code as a point in
// that edge's region gets from rb_cb_box_feature).
RB_FN unsigned int rb_cb_edge_feature(rb_float3 e, int axis)
{
    unsigned int code = 0, w = 1;
    for (int k = 0; k < 3; ++k) {
        if (k != axis)
            code += w * (rb_get(e, k) > 0.0f ? 1u : 2u);
        w *= 3u;
    }
    return code;
}

RB_FN unsigned int rb_cb_capsule_feature(float t) { return t <= 0.0f ? 0u : (t >= 1.0f ? 1u : 2u); }

// Box-local point to world.
RB_FN rb_float3 rb_cb_to_world(rb_float3 c, rb_mat3 u, rb_float3 p)
{
    return rb_add(c, rb_add(rb_add(rb_scale(u.r0, p.x), rb_scale(u.r1, p.y)), rb_scale(u.r2, p.z)));
}

// Face contact against the box face along axis k with outward sign fs (box frame; the manifold
// normal is -fs e_k). Returns the number of points written.
RB_FN int rb_cb_face_contact(rb_float3 p0, rb_float3 dl, rb_float3 h, float r, int k, float fs, float margin,
                             rb_float3 cb, rb_mat3 ub, rb_manifold *m)
{
    int k1 = k == 0 ? 1 : 0;
    int k2 = k == 2 ? 1 : 2;
    float t0 = 0.0f, t1 = 1.0f;
    unsigned int e0 = 0u, e1 = 1u;
    for (int plane = 0; plane < 4; ++plane) {
        int axis = plane < 2 ? k1 : k2;
        float s = (plane & 1) ? -1.0f : 1.0f;
        // s (p0 + t dl)[axis] <= h[axis]  <=>  t den <= num
        float num = rb_get(h, axis) - s * rb_get(p0, axis);
        if (!rb_clip_segment_side(num, s * rb_get(dl, axis), 2u + (unsigned int)plane, &t0, &t1, &e0, &e1))
            return 0;
    }
    if (t0 > t1)
        return 0;

    unsigned int base = (unsigned int)(2 * k + (fs < 0.0f ? 1 : 0)) << 4;
    rb_float3 pts[2];
    float seps[2];
    unsigned int ids[2];
    int n = 0;
    for (int i = 0; i < 2; ++i) {
        float t = i == 0 ? t0 : t1;
        rb_float3 s = rb_mad(p0, t, dl);
        float hgt = fs * rb_get(s, k) - rb_get(h, k);
        float sep = hgt - r;
        if (!(sep < margin))
            continue;
        pts[n] = rb_set(s, k, rb_get(s, k) - fs * 0.5f * (hgt + r));
        seps[n] = sep;
        ids[n] = base | (i == 0 ? e0 : e1);
        ++n;
    }
    if (n == 2) {
        float a = rb_get(pts[1], k1) - rb_get(pts[0], k1);
        float b = rb_get(pts[1], k2) - rb_get(pts[0], k2);
        if (a * a + b * b < RB_CAPSULE_BOX_MERGE * RB_CAPSULE_BOX_MERGE) {
            if (seps[1] < seps[0]) {
                pts[0] = pts[1];
                seps[0] = seps[1];
                ids[0] = ids[1];
            }
            n = 1;
        }
    }
    m->normal = rb_scale(k == 0 ? ub.r0 : (k == 1 ? ub.r1 : ub.r2), -fs);
    m->count = n;
    for (int i = 0; i < n; ++i) {
        m->points[i].point = rb_cb_to_world(cb, ub, pts[i]);
        m->points[i].separation = seps[i];
        m->points[i].id = ids[i];
    }
    return n;
}

RB_FN void rb_collide_capsule_box(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_manifold_clear(m);
    float half_len = a->params.x, r = a->params.y;
    rb_float3 h = rb_xyz(b->params);
    rb_mat3 ub = rb_mat3_transpose(rb_mat3_from_quat(b->xf.q)); // rows = world axes of the box
    rb_float3 cb = b->xf.p;
    rb_float3 dw = rb_sub(a->xf.p, cb);
    rb_float3 ww = rb_rotate(a->xf.q, rb_f3(0.0f, 1.0f, 0.0f));
    // box frame: capsule centre c, axis w, segment p0 + t dl
    rb_float3 c = rb_f3(rb_dot(dw, ub.r0), rb_dot(dw, ub.r1), rb_dot(dw, ub.r2));
    rb_float3 w = rb_f3(rb_dot(ww, ub.r0), rb_dot(ww, ub.r1), rb_dot(ww, ub.r2));
    rb_float3 p0 = rb_mad(c, -half_len, w);
    rb_float3 dl = rb_scale(w, 2.0f * half_len);

    float t;
    float d2 = rb_cb_segment_box_closest(p0, dl, h, &t);
    rb_float3 s = rb_mad(p0, t, dl);

    if (d2 > RB_CAPSULE_BOX_TOUCH * RB_CAPSULE_BOX_TOUCH) {
        // segment outside the box: the closest points give the normal
        float dist = rb_sqrtf(d2);
        float sep = dist - r;
        if (!(sep < margin))
            return;
        rb_float3 q = rb_cb_clamp_box(s, h);
        rb_float3 n = rb_scale(rb_sub(q, s), 1.0f / dist);
        rb_float3 an = rb_abs3(n);
        int k = an.x >= an.y && an.x >= an.z ? 0 : (an.y >= an.z ? 1 : 2);
        if (rb_get(an, k) >= RB_CAPSULE_BOX_FACE_COS) {
            float fs = rb_get(n, k) > 0.0f ? -1.0f : 1.0f;
            int count = rb_cb_face_contact(p0, dl, h, r, k, fs, margin, cb, ub, m);
            // A closest point just beyond the face's rim is cut off by the clip; along a steep
            // segment the cut is then much higher than the true gap. Keep the face contact only if
            // its deepest point is as deep as the closest points say.
            float deepest = RB_FLT_MAX;
            for (int i = 0; i < count; ++i)
                deepest = rb_minf(deepest, m->points[i].separation);
            if (count > 0 && deepest <= sep + RB_CAPSULE_BOX_FACE_SLACK)
                return;
        }
        m->normal = rb_cb_to_world(rb_f3(0.0f, 0.0f, 0.0f), ub, n);
        m->count = 1;
        m->points[0].point = rb_cb_to_world(cb, ub, rb_scale(rb_add(rb_mad(s, r, n), q), 0.5f));
        m->points[0].separation = sep;
        m->points[0].id = 0x100u | (rb_cb_capsule_feature(t) << 5) | rb_cb_box_feature(s, h);
        return;
    }

    // segment touches the box: least penetration over the box faces and (segment x box edge) axes,
    // oriented from the capsule to the box (the box centre is at -c from the capsule centre)
    float sep_f = -RB_FLT_MAX, fs = 1.0f;
    int face = 0;
    for (int k = 0; k < 3; ++k) {
        float ck = rb_get(c, k);
        float sk = rb_fabsf(ck) - half_len * rb_fabsf(rb_get(w, k)) - rb_get(h, k) - r;
        if (sk > sep_f) {
            sep_f = sk;
            face = k;
            fs = ck >= 0.0f ? 1.0f : -1.0f; // the face towards the capsule
        }
    }
    float sep_e = -RB_FLT_MAX;
    int edge = -1;
    rb_float3 n_e = rb_f3(0.0f, 1.0f, 0.0f);
    for (int k = 0; k < 3; ++k) {
        rb_float3 axis = rb_cross(w, rb_set(rb_f3(0.0f, 0.0f, 0.0f), k, 1.0f));
        float l2 = rb_len_sq(axis);
        if (l2 < RB_SAT_PARALLEL_SQ)
            continue;
        axis = rb_scale(axis, 1.0f / rb_sqrtf(l2));
        float dist = rb_dot(c, axis);
        float sk = rb_fabsf(dist) - rb_dot(h, rb_abs3(axis)) - r;
        if (sk > sep_e) {
            sep_e = sk;
            edge = k;
            n_e = rb_scale(axis, dist >= 0.0f ? -1.0f : 1.0f);
        }
    }
    float size = rb_minf(rb_minf(rb_minf(h.x, h.y), h.z), r);
    float tol = rb_sat_edge_tolerance(size, sep_f);
    int use_edge = edge >= 0 && sep_e > sep_f + tol;
    if (!use_edge) {
        if (rb_cb_face_contact(p0, dl, h, r, face, fs, margin, cb, ub, m) > 0)
            return;
        // not expected (part of the segment is inside the face's prism); keep the closest point
        float hgt = fs * rb_get(s, face) - rb_get(h, face);
        m->count = 1;
        m->points[0].point = rb_cb_to_world(cb, ub, rb_set(s, face, rb_get(s, face) - fs * 0.5f * (hgt + r)));
        m->points[0].separation = hgt - r;
        m->points[0].id = ((unsigned int)(2 * face + (fs < 0.0f ? 1 : 0)) << 4) | rb_cb_capsule_feature(t);
        return;
    }
    // support edge of the box along -n (towards the capsule), parallel to axis `edge`; an axis
    // perpendicular to n (the support is a face there) takes the side of the capsule's centre
    rb_float3 eb = h;
    for (int k = 0; k < 3; ++k) {
        float nk = rb_get(n_e, k);
        float side = rb_fabsf(nk) < 1e-6f ? rb_get(c, k) : -nk;
        eb = rb_set(eb, k, side >= 0.0f ? rb_get(h, k) : -rb_get(h, k));
    }
    rb_float3 ea = rb_set(eb, edge, -rb_get(h, edge));
    eb = rb_set(eb, edge, rb_get(h, edge));
    float se, te;
    rb_float3 cs, ce;
    rb_segment_segment_closest(p0, rb_add(p0, dl), ea, eb, &se, &te, &cs, &ce);
    m->normal = rb_cb_to_world(rb_f3(0.0f, 0.0f, 0.0f), ub, n_e);
    m->count = 1;
    m->points[0].point = rb_cb_to_world(cb, ub, rb_scale(rb_add(rb_mad(cs, r, n_e), ce), 0.5f));
    m->points[0].separation = rb_dot(rb_sub(ce, cs), n_e) - r;
    m->points[0].id = 0x100u | (rb_cb_capsule_feature(se) << 5) | rb_cb_edge_feature(eb, edge);
    if (!(m->points[0].separation < margin))
        m->count = 0;
}

#endif
