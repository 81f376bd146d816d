// Capsule-convex narrow phase, in the hull's frame. The capsule is its core segment [P0, P1] (P0 at
// -half_length along its local y) swept by its radius r; the hull is its core grown by its rounding
// radius rh. The reach is margin + r + rh.
//
// 1. Separating axes of the segment and the hull (the faces of their Minkowski difference): the hull's
//    face normals (separation: min(n . P0, n . P1) - d) and the cross products w x e of the capsule's
//    axis w with the hull's edges e whose arcs on the Gauss map cross the great circle normal to w
//    ((u . w)(v . w) < 0 for the edge's face normals u, v; a segment's Gauss map is that circle). Such an
//    axis is turned against u + v (from the capsule to the hull), and its separation is n . (edge point -
//    segment point) (the segment projects to one point). Cross products of edges parallel to w within
//    ~1e-3 rad are skipped (RB_SAT_PARALLEL_SQ): the face normals cover them. An axis that separates by
//    more than the reach: no contact.
// 2. Cores apart (some axis separates them; a capsule resting on a hull is usually so, only its radius
//    overlaps): the axes only bound the distance from below, so the exact closest points are taken,
//    cs on the segment and q on the hull (rb_cxc_segment_hull), as capsule-box does. The normal is
//    (q - cs) / dist and the separation dist - r - rh. If that normal is within ~1 degree of a face
//    normal (RB_CAPSULE_CONVEX_FACE_COS) the contact is a face contact (step 4), kept only if its deepest
//    point is within RB_CAPSULE_CONVEX_FACE_SLACK (0.5 mm) of dist - r - rh (a segment reaching over the
//    face's rim is cut at the rim, and along a steep segment that cut is far higher than the gap);
//    otherwise one point midway between cs + r n and q - rh n.
// 3. Cores touching or overlapping: the axis of least penetration, as capsule-box: a face wins unless an
//    edge axis separates more by min(2.5 mm, a tenth of the smaller of r and the hull's least face
//    distance) + 5% |separation| (rb_sat_edge_tolerance). A face gives a face contact (step 4); an edge
//    one point midway between the closest points cs (segment) and ce (edge), each grown by its radius
//    along the axis n, separation n . (ce - cs) - r - rh. If the chosen case gives no point the other is
//    tried (an edge then only if the segment really crosses it); if neither does, the segment's deeper
//    end along the face axis gives one point.
// 4. Face contact, face f with outward normal n (the manifold normal is -n): the segment clipped to f's
//    side planes ((edge of f) x n; Liang-Barsky on the segment parameter); each end of the clipped piece
//    at height hgt above f gives separation hgt - r - rh and the point s - n (hgt + r - rh) / 2, midway
//    between the capsule's surface and the rounded face; ends beyond the margin are dropped, and two
//    ends closer than RB_CAPSULE_CONVEX_MERGE (1 mm) along the face (an upright capsule) are one point,
//    the deeper.
// The normal points from the capsule (A) to the hull (B).
//
// Feature ids: face contact: f << 8 | end, end = 0 or 1 for an end of the segment (P0, P1), 2 + k where
// the side plane of f's k-th edge cut it. Edge contact (cores overlapping): 0x10000 | capsule feature << 8
// | edge, capsule feature = 0 or 1 (P0, P1) or 2 (between). Closest points (cores apart): 0x20000 |
// capsule feature << 8 (the hull's feature is left out: as sphere-box's single point, the id stays as
// the capsule rolls over edges and vertices).
#ifndef RB_KERNELS_COLLIDE_CAPSULE_CONVEX_H
#define RB_KERNELS_COLLIDE_CAPSULE_CONVEX_H

#include "collide_convex.h"

#define RB_CAPSULE_CONVEX_MERGE 1e-3f
#define RB_CAPSULE_CONVEX_FACE_SLACK 5e-4f
#define RB_CAPSULE_CONVEX_FACE_COS 0.99985f

RB_FN unsigned int rb_cxc_capsule_feature(float t) { return t <= 0.0f ? 0u : (t >= 1.0f ? 1u : 2u); }

// Face contact of the segment p0 + t dl against face f of hull h (hull frame; xf = the hull's pose).
// Returns the number of points written.
RB_FN int rb_cxc_face_contact(rb_hull_view h, int f, rb_float3 p0, rb_float3 dl, float r, float rh, float margin,
                              rb_xform xf, rb_manifold *m)
{
    rb_float4 pl = rb_hull_plane(h, f);
    rb_float3 n = rb_xyz(pl);
    float t0 = 0.0f, t1 = 1.0f;
    unsigned int c0 = 0u, c1 = 1u;
    int cnt = rb_mini(rb_hull_face_edge_count(h, f), RB_HULL_MAX_VERTICES);
    int e = rb_hull_face_first_edge(h, f);
    rb_float3 a = rb_hull_vertex(h, rb_hull_edge_origin(h, e));
    for (int k = 0; k < cnt; ++k) {
        e = rb_hull_edge_next(h, e);
        rb_float3 b = rb_hull_vertex(h, rb_hull_edge_origin(h, e));
        // inside the side plane: sn . (p0 + t dl) <= sn . a  <=>  t den <= num
        rb_float3 sn = rb_cross(rb_sub(b, a), n);
        float num = rb_dot(sn, rb_sub(a, p0));
        if (!rb_clip_segment_side(num, rb_dot(sn, dl), 2u + (unsigned int)k, &t0, &t1, &c0, &c1))
            return 0;
        a = b;
    }
    if (t0 > t1)
        return 0;
    rb_float3 pts[2];
    float seps[2];
    unsigned int ids[2];
    int count = 0;
    for (int i = 0; i < 2; ++i) {
        rb_float3 s = rb_mad(p0, i == 0 ? t0 : t1, dl);
        float hgt = rb_dot(n, s) - pl.w;
        float sep = hgt - r - rh;
        if (!(sep < margin))
            continue;
        pts[count] = rb_mad(s, -0.5f * (hgt + r - rh), n);
        seps[count] = sep;
        ids[count] = ((unsigned int)f << 8) | (i == 0 ? c0 : c1);
        ++count;
    }
    if (count == 2) {
        rb_float3 lateral = rb_sub(pts[1], pts[0]);
        lateral = rb_mad(lateral, -rb_dot(lateral, n), n);
        if (rb_len_sq(lateral) < RB_CAPSULE_CONVEX_MERGE * RB_CAPSULE_CONVEX_MERGE) {
            if (seps[1] < seps[0]) {
                pts[0] = pts[1];
                seps[0] = seps[1];
                ids[0] = ids[1];
            }
            count = 1;
        }
    }
    m->normal = rb_rotate(xf.q, rb_neg(n));
    m->count = count;
    for (int i = 0; i < count; ++i) {
        m->points[i].point = rb_xform_point(xf, pts[i]);
        m->points[i].separation = seps[i];
        m->points[i].id = ids[i];
    }
    return count;
}

// Edge contact (cores overlapping) of segment [p0, p1] against edge k of hull h along axis n (unit,
// capsule to hull). Returns the number of points.
RB_FN int rb_cxc_edge_contact(rb_hull_view h, int k, rb_float3 n, rb_float3 p0, rb_float3 p1, float r, float rh,
                              float margin, int fallback, rb_xform xf, rb_manifold *m)
{
    rb_float4 e0 = rb_hull_half_edge(h, 2 * k), e1 = rb_hull_half_edge(h, 2 * k + 1);
    float s, t;
    rb_float3 cs, ce;
    rb_segment_segment_closest(p0, p1, rb_hull_vertex(h, (int)e0.x), rb_hull_vertex(h, (int)e1.x), &s, &t, &cs, &ce);
    rb_float3 gap = rb_sub(ce, cs);
    float sep = rb_dot(gap, n);
    m->normal = rb_rotate(xf.q, n);
    m->count = 0;
    if (fallback) {
        // not the first choice: a contact only if the segment and the edge really cross
        rb_float3 lateral = rb_mad(gap, -sep, n);
        float tol = 0.05f * rb_fabsf(sep) + 1e-5f;
        if (!(rb_len_sq(lateral) <= tol * tol))
            return 0;
    }
    sep -= r + rh;
    if (!(sep < margin))
        return 0;
    m->count = 1;
    m->points[0].point = rb_xform_point(xf, rb_scale(rb_add(rb_mad(cs, r, n), rb_mad(ce, -rh, n)), 0.5f));
    m->points[0].separation = sep;
    m->points[0].id = 0x10000u | (rb_cxc_capsule_feature(s) << 8) | (unsigned int)k;
    return 1;
}

// Exact distance from the segment [p0, p1] to hull h (all outside it): the closest pair is an end of the
// segment against the hull (rb_cx_point_hull), or a point of the segment against an edge (a segment's
// distance to a face's plane is linear along it, so where it is least inside the face it is least at an
// end or where the face's nearest point reaches an edge). Writes the segment parameter t, the closest
// points cs (segment) and q (hull).
RB_FN float rb_cxc_segment_hull(rb_hull_view h, rb_float3 p0, rb_float3 p1, float *t, rb_float3 *cs, rb_float3 *q)
{
    float dist = RB_FLT_MAX;
    for (int end = 0; end < 2; ++end) { // one call site: the GPU compilers inline every call
        rb_float3 qe, ne;
        int fe;
        float de = rb_cx_point_hull(h, end ? p1 : p0, &qe, &ne, &fe);
        if (de < dist) {
            dist = de;
            *t = (float)end;
            *cs = end ? p1 : p0;
            *q = qe;
        }
    }
    int ne = rb_mini(rb_hull_half_edge_count(h) / 2, RB_CX_MAX_EDGES);
    for (int k = 0; k < ne; ++k) {
        rb_float4 e0 = rb_hull_half_edge(h, 2 * k), e1 = rb_hull_half_edge(h, 2 * k + 1);
        float s, u;
        rb_float3 c1, c2;
        rb_segment_segment_closest(p0, p1, rb_hull_vertex(h, (int)e0.x), rb_hull_vertex(h, (int)e1.x), &s, &u, &c1,
                                   &c2);
        float d = rb_len(rb_sub(c2, c1));
        if (d < dist) {
            dist = d;
            *t = s;
            *cs = c1;
            *q = c2;
        }
    }
    return dist;
}

// One point midway between the capsule's surface cs + r n and the rounded hull's q - rh n.
RB_FN void rb_cxc_one_point(rb_float3 cs, rb_float3 q, rb_float3 n, float r, float rh, float sep, unsigned int id,
                            rb_xform xf, rb_manifold *m)
{
    m->normal = rb_rotate(xf.q, n);
    m->count = 1;
    m->points[0].point = rb_xform_point(xf, rb_scale(rb_add(rb_mad(cs, r, n), rb_mad(q, -rh, n)), 0.5f));
    m->points[0].separation = sep;
    m->points[0].id = id;
}

RB_FN_CALLED void rb_collide_capsule_convex(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_manifold_clear(m);
    rb_hull_view h = b->hull;
    if (!h.rec) // made without the pool: no contact
        return;
    float half_len = a->params.x, r = a->params.y, rh = b->params.x;
    float reach = margin + r + rh;
    rb_float3 dw = rb_sub(a->xf.p, b->xf.p);
    float far = half_len + rb_hull_bounding_radius(h) + reach;
    if (rb_len_sq(dw) > far * far)
        return;
    // hull frame: capsule centre c, axis w, segment p0 + t dl
    rb_float3 c = rb_inv_rotate(b->xf.q, dw);
    rb_float3 w = rb_inv_rotate(b->xf.q, rb_rotate(a->xf.q, rb_f3(0.0f, 1.0f, 0.0f)));
    rb_float3 p0 = rb_mad(c, -half_len, w), p1 = rb_mad(c, half_len, w);

    int nf = rb_mini(rb_hull_face_count(h), RB_HULL_MAX_FACES);
    float fw[RB_HULL_MAX_FACES];
    float sep_f = -RB_FLT_MAX, size = RB_FLT_MAX;
    int face = 0;
    for (int f = 0; f < nf; ++f) {
        rb_float4 pl = rb_hull_plane(h, f);
        rb_float3 n = rb_xyz(pl);
        float s = rb_minf(rb_dot(n, p0), rb_dot(n, p1)) - pl.w;
        if (s > reach)
            return;
        if (s > sep_f) {
            sep_f = s;
            face = f;
        }
        size = rb_minf(size, pl.w);
        fw[f] = rb_dot(n, w);
    }
    int ne = rb_mini(rb_hull_half_edge_count(h) / 2, RB_CX_MAX_EDGES);
    float sep_e = -RB_FLT_MAX;
    int edge = -1;
    rb_float3 n_e = rb_f3(0.0f, 1.0f, 0.0f);
    for (int k = 0; k < ne; ++k) {
        rb_float4 e0 = rb_hull_half_edge(h, 2 * k), e1 = rb_hull_half_edge(h, 2 * k + 1);
        int fu = (int)e0.w, fv = (int)e1.w;
        if (!(fw[fu] * fw[fv] < 0.0f))
            continue;
        rb_float3 va = rb_hull_vertex(h, (int)e0.x);
        rb_float3 ed = rb_sub(rb_hull_vertex(h, (int)e1.x), va);
        rb_float3 n = rb_cross(w, ed);
        float l2 = rb_len_sq(n);
        if (l2 < RB_SAT_PARALLEL_SQ * rb_len_sq(ed))
            continue;
        n = rb_scale(n, 1.0f / rb_sqrtf(l2));
        if (rb_dot(n, rb_add(rb_xyz(rb_hull_plane(h, fu)), rb_xyz(rb_hull_plane(h, fv)))) > 0.0f)
            n = rb_neg(n);
        float s = rb_dot(n, rb_sub(va, c));
        if (s > reach)
            return;
        if (s > sep_e) {
            sep_e = s;
            edge = k;
            n_e = n;
        }
    }

    float tol = rb_sat_edge_tolerance(rb_minf(rb_maxf(size, 0.0f), r), sep_f - r - rh);
    float sep_max = edge >= 0 ? rb_maxf(sep_f, sep_e) : sep_f;
    rb_float3 dl = rb_sub(p1, p0);

    // cores apart: the exact closest points, and a face contact where their direction is a face's
    // normal; cores touching or overlapping: the axis of least penetration
    int apart = 0, try_face = 0, fn = face;
    float t = 0.0f, sep = 0.0f;
    rb_float3 cs = p0, q = p0, n = n_e;
    if (sep_max > 0.0f) {
        float dist = rb_cxc_segment_hull(h, p0, p1, &t, &cs, &q);
        if (dist > 0.0f) {
            apart = 1;
            n = rb_scale(rb_sub(q, cs), 1.0f / dist);
            sep = dist - r - rh;
            m->normal = rb_rotate(b->xf.q, n);
            if (!(sep < margin))
                return;
            float cos_best = -RB_FLT_MAX;
            for (int f = 0; f < nf; ++f) {
                float cf = -rb_dot(n, rb_xyz(rb_hull_plane(h, f)));
                if (cf > cos_best) {
                    cos_best = cf;
                    fn = f;
                }
            }
            try_face = cos_best >= RB_CAPSULE_CONVEX_FACE_COS;
        }
    }
    int use_edge = !apart && edge >= 0 && sep_e > sep_f + tol;
    for (int attempt = 0; attempt < 2; ++attempt) {
        int try_edge = (attempt == 0) == use_edge;
        if (!try_edge && (try_face || !apart)) { // one call site (the GPU compilers inline every call)
            int count = rb_cxc_face_contact(h, fn, p0, dl, r, rh, margin, b->xf, m);
            float deepest = RB_FLT_MAX;
            for (int i = 0; i < count; ++i)
                deepest = rb_minf(deepest, m->points[i].separation);
            // apart, the face contact stands only if it is as deep as the closest points say
            if (count > 0 && (!apart || deepest <= sep + RB_CAPSULE_CONVEX_FACE_SLACK))
                return;
        }
        if (try_edge && !apart && edge >= 0 &&
            rb_cxc_edge_contact(h, edge, n_e, p0, p1, r, rh, margin, attempt > 0, b->xf, m) > 0)
            return;
    }
    if (apart) {
        rb_cxc_one_point(cs, q, n, r, rh, sep, 0x20000u | (rb_cxc_capsule_feature(t) << 8), b->xf, m);
        return;
    }
    // not expected (the segment is inside the face's prism somewhere): the deeper end along the face axis
    rb_float4 pl = rb_hull_plane(h, face);
    float h0 = rb_dot(rb_xyz(pl), p0) - pl.w, h1 = rb_dot(rb_xyz(pl), p1) - pl.w;
    float hgt = rb_minf(h0, h1);
    cs = h1 < h0 ? p1 : p0;
    m->count = 0;
    m->normal = rb_rotate(b->xf.q, rb_neg(rb_xyz(pl)));
    if (hgt - r - rh < margin)
        rb_cxc_one_point(cs, rb_mad(cs, -hgt, rb_xyz(pl)), rb_neg(rb_xyz(pl)), r, rh, hgt - r - rh,
                         ((unsigned int)face << 8) | (h1 < h0 ? 1u : 0u), b->xf, m);
}

#endif
