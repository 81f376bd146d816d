// Box-box narrow phase: separating-axis test, then face clipping or edge-edge closest points.
//
// 1. Separating axes (15): the 3 face normals of A, the 3 of B and the 9 cross products of an edge
//    direction of A with one of B. A cross product shorter than RB_SAT_PARALLEL_SQ (squared;
//    the edges are parallel within ~1e-3 rad) is skipped: its direction is noise, and when two edges
//    are parallel the face normals already hold every separating axis of the pair. Each axis is
//    oriented from A to B (by the sign of (centre B - centre A) . axis; a zero projection counts as
//    positive, so coincident centres give a deterministic answer). The separation along an axis is
//    the gap between the two projected intervals (< 0: overlap). If any axis separates the boxes by
//    more than `margin`, there is no contact.
// 2. Axis choice, with a tolerance so that the reference face does not flip between frames when two
//    axes are nearly equally good (Gregorius, "Robust Contact Creation for Physics Simulations",
//    GDC 2015). With sA, sB the best face separations of A and B and sE the best edge separation:
//      - B's face is the reference only if sB > sA + t + RB_BOX_BOX_FACE_TOL_REL |sA| (2%);
//      - the edge pair wins only if sE > sF + t + RB_SAT_EDGE_TOL_REL |sF| (5%), sF = max(sA, sB).
//    The absolute part t (RB_BOX_BOX_*_TOL_ABS) is half the default linear slop, 2.5 mm, but at most a
//    tenth of the smallest half extent of the two boxes: an exactly stacked pair that tips by a few
//    milliradians keeps A's face, and a face contact is not mistaken for an edge contact (edge axes
//    such as x_A x z_B = -y equal a face normal when boxes are aligned). The relative part scales the
//    tolerance with deep penetrations, where errors of the order of the depth are harmless. The
//    price: the reported depth may exceed the least penetration by up to the tolerance.
// 3. Face case: the reference face is the chosen face (normal nR towards the other box); the incident
//    face is the face of the other box most anti-parallel to nR. The incident quad, in the reference
//    box's frame, is clipped by the reference face's 4 side planes (Sutherland-Hodgman, fixed
//    arrays). A clipped point at height s above the reference plane (s < 0 below it) is kept when
//    s < margin; the contact point is moved s/2 back along nR, midway between the two surfaces; and
//    at most 4 points are kept by rb_manifold_reduce.
// 4. Edge case: the support edge of A along +n and of B along -n (n = the edge axis); one point
//    midway between their closest points (rb_segment_segment_closest), separation = the signed
//    distance between those points along n (= the axis's separation). When the boxes are apart, the
//    largest separation over all axes is the better (still conservative) bound and is used, and the
//    edges must come within `margin` of each other.
// 5. If the chosen case gives no point (the tolerance can pick a face whose clipped incident face is
//    all beyond the margin, or misses the reference face: a contact at a face's rim), the two other
//    candidates are tried, best separation first; an edge pair tried this way while the boxes overlap
//    must really cross (closest points across the axis).
// The normal always points from A to B (it is -nR when the reference face is on B).
//
// Feature ids (bits; unique within a manifold, unchanged while the same features touch):
//   face case:  bit 14 = reference face on B, bits 11-13 = reference face, bits 0-7 = the incident-box
//               feature that made the point: an incident vertex (0..7), or 8 + 4 tag + plane for the
//               crossing of side plane `plane` (0..3) with the polygon edge `tag`, which is an
//               incident-box edge (0..11) or, for a corner of the reference face, a side plane
//               (12 + plane, 12..15). The incident face is not part of the id: among near-ties (a box
//               balanced on a vertex or an edge) it flips under the slightest turn while the touching
//               vertex or edge, which is what the solver's warm start cares about, stays the same;
//   edge case:  bit 15 set, bits 4-7 = edge of A, bits 0-3 = edge of B.
// Face f = 2 axis + (1 if the outward normal is -axis); vertex = bit k set when its coordinate along
// local axis k is negative; edge = 4 axis + (bit 0: sign of the lower other axis is -, bit 1: sign of
// the higher other axis is -).
#ifndef RB_KERNELS_COLLIDE_BOX_BOX_H
#define RB_KERNELS_COLLIDE_BOX_BOX_H

#include "closest_points.h"
#include "manifold_reduce.h"
#include "sat_tolerance.h"
#include "shape_geom.h"

#define RB_BOX_BOX_FACE_TOL_ABS 0.0025f
#define RB_BOX_BOX_FACE_TOL_REL 0.02f
// Clipping a quad by 4 planes gives at most 8 vertices; float noise at points that lie on a plane
// can add a few, so the buffers hold the candidate limit of rb_manifold_reduce.
#define RB_BOX_BOX_MAX_POLY RB_MAX_CANDIDATE_POINTS

RB_FN rb_float3 rb_bb_row(rb_mat3 m, int i) { return i == 0 ? m.r0 : (i == 1 ? m.r1 : m.r2); }

RB_FN float rb_bb_sign(float x) { return x >= 0.0f ? 1.0f : -1.0f; }

// Vertex index from the signs of its local coordinates.
RB_FN int rb_bb_vertex_id(rb_float3 s) { return (s.x < 0.0f ? 1 : 0) + (s.y < 0.0f ? 2 : 0) + (s.z < 0.0f ? 4 : 0); }

// Edge index from its direction axis and the signs of the other two local coordinates.
RB_FN int rb_bb_edge_id(int axis, rb_float3 s)
{
    int lo = axis == 0 ? 1 : 0;
    int hi = axis == 2 ? 1 : 2;
    return 4 * axis + (rb_get(s, lo) < 0.0f ? 1 : 0) + (rb_get(s, hi) < 0.0f ? 2 : 0);
}

// Sum of the rows of u weighted by p: a box-local vector (rows of u = the box's world axes) in world.
RB_FN rb_float3 rb_bb_combine(rb_mat3 u, rb_float3 p)
{
    return rb_add(rb_add(rb_scale(u.r0, p.x), rb_scale(u.r1, p.y)), rb_scale(u.r2, p.z));
}

// Projection radius of a box (rows of `u` = its world axes, `h` = half extents) on the unit axis n.
RB_FN float rb_bb_radius(rb_mat3 u, rb_float3 h, rb_float3 n)
{
    return h.x * rb_fabsf(rb_dot(u.r0, n)) + h.y * rb_fabsf(rb_dot(u.r1, n)) + h.z * rb_fabsf(rb_dot(u.r2, n));
}

// One Sutherland-Hodgman step in the reference box's frame: keep the part of polygon (ip, n) with
// sign * x[axis] <= h. Every vertex carries its feature id and the tag of the edge that leaves it.
RB_FN int rb_bb_clip(const rb_float3 *ip, const unsigned int *iid, const int *itag, int n, int axis, float sign,
                     float h, int plane, rb_float3 *op, unsigned int *oid, int *otag)
{
    int count = 0;
    for (int i = 0; i < n && i < RB_BOX_BOX_MAX_POLY; ++i) {
        int j = i + 1 == n ? 0 : i + 1;
        float da = sign * rb_get(ip[i], axis) - h;
        float db = sign * rb_get(ip[j], axis) - h;
        // a vertex on the plane is kept and makes no crossing (no duplicate points); after the last
        // vertex kept before the polygon goes out, the next edge runs along the plane
        if (da <= 0.0f && count < RB_BOX_BOX_MAX_POLY) {
            op[count] = ip[i];
            oid[count] = iid[i];
            otag[count] = (da == 0.0f && db > 0.0f) ? 12 + plane : itag[i];
            ++count;
        }
        if (((da < 0.0f && db > 0.0f) || (da > 0.0f && db < 0.0f)) && count < RB_BOX_BOX_MAX_POLY) {
            float t = da / (da - db);
            // the crossing lies on the plane exactly
            op[count] = rb_set(rb_lerp3(ip[i], ip[j], t), axis, sign * h);
            oid[count] = (unsigned int)(8 + 4 * itag[i] + plane);
            otag[count] = da < 0.0f ? 12 + plane : itag[i];
            ++count;
        }
    }
    return count;
}

// Face case. Reference box R (rows of uR = world axes, half extents hR, centre cR), reference face
// along axis fr with outward sign sr; incident box I with centre cR + d. Writes the manifold with
// normal nR (flip = 0) or -nR (flip = 1, the reference is B). Returns the number of points.
RB_FN int rb_bb_face_contact(rb_float3 cR, rb_mat3 uR, rb_float3 hR, rb_mat3 uI, rb_float3 hI, rb_float3 d, int fr,
                             float sr, int flip, float margin, rb_manifold *m)
{
    rb_float3 nR = rb_scale(rb_bb_row(uR, fr), sr);

    // incident face: the face of I most anti-parallel to nR (ties go to the lower axis)
    int k = 0;
    float ck = rb_dot(uI.r0, nR);
    for (int i = 1; i < 3; ++i) {
        float c = rb_dot(rb_bb_row(uI, i), nR);
        if (rb_fabsf(c) > rb_fabsf(ck)) {
            k = i;
            ck = c;
        }
    }
    float si = ck > 0.0f ? -1.0f : 1.0f;
    int k1 = k == 0 ? 1 : 0;
    int k2 = k == 2 ? 1 : 2;
    rb_float3 e1 = rb_scale(rb_bb_row(uI, k1), rb_get(hI, k1));
    rb_float3 e2 = rb_scale(rb_bb_row(uI, k2), rb_get(hI, k2));
    rb_float3 fc = rb_mad(d, si * rb_get(hI, k), rb_bb_row(uI, k));

    // the quad (+,+), (-,+), (-,-), (+,-) along (k1, k2), in the reference frame
    rb_float3 pa[RB_BOX_BOX_MAX_POLY], pb[RB_BOX_BOX_MAX_POLY];
    unsigned int ida[RB_BOX_BOX_MAX_POLY], idb[RB_BOX_BOX_MAX_POLY];
    int taga[RB_BOX_BOX_MAX_POLY], tagb[RB_BOX_BOX_MAX_POLY];
    for (int v = 0; v < 4; ++v) {
        float sa = (v == 0 || v == 3) ? 1.0f : -1.0f;
        float sb = v < 2 ? 1.0f : -1.0f;
        rb_float3 w = rb_add(fc, rb_add(rb_scale(e1, sa), rb_scale(e2, sb)));
        pa[v] = rb_f3(rb_dot(w, uR.r0), rb_dot(w, uR.r1), rb_dot(w, uR.r2));
        rb_float3 s = rb_set(rb_set(rb_set(rb_f3(0.0f, 0.0f, 0.0f), k, si), k1, sa), k2, sb);
        ida[v] = (unsigned int)rb_bb_vertex_id(s);
        // edge v -> v+1 runs along k1 for v = 0, 2 and along k2 for v = 1, 3
        taga[v] = rb_bb_edge_id((v & 1) ? k2 : k1, s);
    }

    // clip by the reference face's side planes
    int r1 = fr == 0 ? 1 : 0;
    int r2 = fr == 2 ? 1 : 2;
    int n = 4;
    n = rb_bb_clip(pa, ida, taga, n, r1, 1.0f, rb_get(hR, r1), 0, pb, idb, tagb);
    n = rb_bb_clip(pb, idb, tagb, n, r1, -1.0f, rb_get(hR, r1), 1, pa, ida, taga);
    n = rb_bb_clip(pa, ida, taga, n, r2, 1.0f, rb_get(hR, r2), 2, pb, idb, tagb);
    n = rb_bb_clip(pb, idb, tagb, n, r2, -1.0f, rb_get(hR, r2), 3, pa, ida, taga);

    // the incident face is left out: it flips among near-ties (a box on a vertex or an edge) while the
    // touching vertex or edge stays the same, and within one manifold it is fixed anyway
    unsigned int base = (unsigned int)((flip << 14) | ((2 * fr + (sr < 0.0f ? 1 : 0)) << 11));
    rb_manifold_point cand[RB_MAX_CANDIDATE_POINTS];
    int count = 0;
    float href = rb_get(hR, fr);
    for (int i = 0; i < n && i < RB_BOX_BOX_MAX_POLY; ++i) {
        float sep = sr * rb_get(pa[i], fr) - href;
        if (!(sep < margin))
            continue;
        // midway: half the separation back towards the reference face
        rb_float3 p = rb_set(pa[i], fr, rb_get(pa[i], fr) - 0.5f * sep * sr);
        cand[count].point = rb_add(cR, rb_bb_combine(uR, p));
        cand[count].separation = sep;
        cand[count].id = base | ida[i];
        ++count;
    }
    rb_manifold_reduce(cand, count, flip ? rb_neg(nR) : nR, m);
    return count;
}

// Edge case: edge axis ua[i] x ub[j] (unit, oriented A to B) = n; B's centre at A's centre + d. The
// separation along n of the two support edges is the SAT separation sep_e of that axis; sep_max is the
// largest separation over all axes (> 0: the boxes are apart). Returns the number of points (0 or 1).
RB_FN int rb_bb_edge_contact(rb_float3 ca, rb_mat3 ua, rb_float3 ha, rb_mat3 ub, rb_float3 hb, rb_float3 d, int i,
                             int j, rb_float3 n, float sep_max, float margin, int fallback, rb_manifold *m)
{
    // support edge of A along +n and of B along -n: each other coordinate at the end its axis points to
    // along n; an axis perpendicular to n (the support is a face, not an edge) takes the side facing the
    // other box
    rb_float3 sa = rb_f3(1.0f, 1.0f, 1.0f), sb = rb_f3(1.0f, 1.0f, 1.0f);
    for (int k = 0; k < 3; ++k) {
        float ka = rb_dot(rb_bb_row(ua, k), n), kb = rb_dot(rb_bb_row(ub, k), n);
        if (rb_fabsf(ka) < 1e-6f)
            ka = rb_dot(rb_bb_row(ua, k), d);
        if (rb_fabsf(kb) < 1e-6f)
            kb = rb_dot(rb_bb_row(ub, k), d);
        sa = rb_set(sa, k, rb_bb_sign(ka));
        sb = rb_set(sb, k, -rb_bb_sign(kb));
    }
    sa = rb_set(sa, i, 1.0f);
    sb = rb_set(sb, j, 1.0f);
    rb_float3 pa = rb_bb_combine(ua, rb_mul(sa, ha));
    rb_float3 pb = rb_add(d, rb_bb_combine(ub, rb_mul(sb, hb)));
    // pa, pb are the +axis ends of the edges; the other ends are 2 h back along the axis
    rb_float3 qa = rb_mad(pa, -2.0f * rb_get(ha, i), rb_bb_row(ua, i));
    rb_float3 qb = rb_mad(pb, -2.0f * rb_get(hb, j), rb_bb_row(ub, j));
    float s, t;
    rb_float3 c1, c2;
    rb_segment_segment_closest(qa, pa, qb, pb, &s, &t, &c1, &c2);
    float sep = rb_dot(rb_sub(c2, c1), n);
    m->normal = n;
    m->count = 0;
    if (sep_max > 0.0f) {
        // Apart: the gap along any direction is at least the boxes' distance, which is at least every
        // axis's separation, so the largest is the better bound. But these edges are a contact only
        // if they come within the margin of each other; when their closest points are not across the
        // axis (the closest features are really a vertex, or edges beyond a face's rim) they may not.
        sep = rb_maxf(sep, sep_max);
        if (!(rb_len_sq(rb_sub(c2, c1)) < margin * margin))
            return 0;
    } else if (fallback) {
        // Overlapping, but this pair was not the first choice: it is a contact only if the edges
        // really cross (closest points across the axis, not at an edge's end beside the other).
        rb_float3 lateral = rb_mad(rb_sub(c2, c1), -sep, n);
        float tol = 0.05f * rb_fabsf(sep) + 1e-5f;
        if (!(rb_len_sq(lateral) <= tol * tol))
            return 0;
    }
    if (!(sep < margin))
        return 0;
    m->count = 1;
    m->points[0].point = rb_add(ca, rb_scale(rb_add(c1, c2), 0.5f));
    m->points[0].separation = sep;
    m->points[0].id = (unsigned int)(0x8000 | (rb_bb_edge_id(i, sa) << 4) | rb_bb_edge_id(j, sb));
    return 1;
}

RB_FN void rb_collide_box_box(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_manifold_clear(m);
    // Bounding spheres apart by more than the margin: no contact, without building the axes (the
    // bounding boxes of turned boxes overlap much more often than the boxes do).
    rb_float3 d0 = rb_sub(b->xf.p, a->xf.p);
    float reach = rb_len(rb_xyz(a->params)) + rb_len(rb_xyz(b->params)) + margin;
    if (rb_len_sq(d0) > reach * reach)
        return;
    // rows = world directions of the local axes
    rb_mat3 ua = rb_mat3_transpose(rb_mat3_from_quat(a->xf.q));
    rb_mat3 ub = rb_mat3_transpose(rb_mat3_from_quat(b->xf.q));
    rb_float3 ha = rb_xyz(a->params);
    rb_float3 hb = rb_xyz(b->params);
    rb_float3 d = rb_sub(b->xf.p, a->xf.p);

    // faces of A
    float sep_a = -RB_FLT_MAX, sign_a = 1.0f;
    int axis_a = 0;
    for (int i = 0; i < 3; ++i) {
        rb_float3 u = rb_bb_row(ua, i);
        float dist = rb_dot(d, u);
        float s = rb_fabsf(dist) - rb_get(ha, i) - rb_bb_radius(ub, hb, u);
        if (s > margin)
            return;
        if (s > sep_a) {
            sep_a = s;
            axis_a = i;
            sign_a = rb_bb_sign(dist);
        }
    }
    // faces of B
    float sep_b = -RB_FLT_MAX, sign_b = 1.0f;
    int axis_b = 0;
    for (int j = 0; j < 3; ++j) {
        rb_float3 u = rb_bb_row(ub, j);
        float dist = rb_dot(d, u);
        float s = rb_fabsf(dist) - rb_get(hb, j) - rb_bb_radius(ua, ha, u);
        if (s > margin)
            return;
        if (s > sep_b) {
            sep_b = s;
            axis_b = j;
            sign_b = rb_bb_sign(dist);
        }
    }
    // edge pairs
    float sep_e = -RB_FLT_MAX;
    int edge_i = -1, edge_j = -1;
    rb_float3 n_e = rb_f3(0.0f, 1.0f, 0.0f);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            rb_float3 n = rb_cross(rb_bb_row(ua, i), rb_bb_row(ub, j));
            float l2 = rb_len_sq(n);
            if (l2 < RB_SAT_PARALLEL_SQ)
                continue;
            n = rb_scale(n, 1.0f / rb_sqrtf(l2));
            float dist = rb_dot(d, n);
            float s = rb_fabsf(dist) - rb_bb_radius(ua, ha, n) - rb_bb_radius(ub, hb, n);
            if (s > margin)
                return;
            if (s > sep_e) {
                sep_e = s;
                edge_i = i;
                edge_j = j;
                n_e = rb_scale(n, rb_bb_sign(dist));
            }
        }
    }

    // Axis choice: A's face, unless B's face or an edge pair is clearly better. The absolute part of
    // the tolerance is at most a tenth of the smallest half extent, so that it stays small next to
    // small boxes.
    float hmin = rb_minf(rb_minf(rb_minf(ha.x, ha.y), ha.z), rb_minf(rb_minf(hb.x, hb.y), hb.z));
    float tol_face = rb_minf(RB_BOX_BOX_FACE_TOL_ABS, 0.1f * hmin) + RB_BOX_BOX_FACE_TOL_REL * rb_fabsf(sep_a);
    int use_b = sep_b > sep_a + tol_face;
    float sep_f = rb_maxf(sep_a, sep_b);
    float tol_edge = rb_sat_edge_tolerance(hmin, sep_f);
    int use_edge = edge_i >= 0 && sep_e > sep_f + tol_edge;

    // The chosen case first. If it gives no point (the tolerance can pick a face whose clipped
    // incident face lies beyond the margin or misses the reference face; a face contact at the rim
    // of a face), the other candidates follow, best separation first.
    int first = use_edge ? 2 : (use_b ? 1 : 0);
    float sep_max = rb_maxf(sep_f, sep_e);
    for (int attempt = 0; attempt < 3; ++attempt) {
        int kind = first;
        if (attempt > 0) {
            // the two others, in order of separation (ties: A's face, B's face, edge)
            int o1 = first == 0 ? 1 : 0, o2 = first == 2 ? 1 : 2;
            float s1 = o1 == 0 ? sep_a : sep_b, s2 = o2 == 1 ? sep_b : sep_e;
            int better2 = s2 > s1;
            kind = (attempt == 1) == better2 ? o2 : o1;
        }
        int count = 0;
        if (kind == 0)
            count = rb_bb_face_contact(a->xf.p, ua, ha, ub, hb, d, axis_a, sign_a, 0, margin, m);
        else if (kind == 1)
            count = rb_bb_face_contact(b->xf.p, ub, hb, ua, ha, rb_neg(d), axis_b, -sign_b, 1, margin, m);
        else if (edge_i >= 0)
            count =
                rb_bb_edge_contact(a->xf.p, ua, ha, ub, hb, d, edge_i, edge_j, n_e, sep_max, margin, attempt > 0, m);
        if (count > 0)
            return;
    }
    m->count = 0;
}

#endif
