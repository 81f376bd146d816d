// Convex-convex narrow phase (and box-convex: the box as the pool's unit cube viewed at its half
// extents): the separating-axis test of Gregorius ("The Separating Axis Test between Convex
// Polyhedra", GDC 2013), then face clipping or edge-edge closest points as in box-box.
//
// 1. Frame: B's vertices and planes are carried into A's frame once (one relative rotation matrix and
//    translation), A's copied as they are (rb_cx_hull_load); everything below is in A's frame. Bounding
//    spheres apart by more than the reach first: no contact, nothing loaded.
// 2. Separating axes, on the cores: the reach is margin + ra + rb (the rounding radii), and any axis
//    separating the cores by more than the reach ends the test with no contact.
//    - Face normals of A: separation = min over B's vertices of n . v - d (the support of B along -n).
//    - Face normals of B, alike with A's vertices.
//    - Edge pairs that build a face of the Minkowski difference A - B: the arcs of the edges on the
//      Gauss map (A's edge from its face normals u1 to v1; B's from -u2 to -v2) cross. With e1, e2 the
//      edge directions (e1 parallel to u1 x v1, e2 to u2 x v2) the three conditions of Gregorius become
//      (u2 . e1)(v2 . e1) < 0, (u1 . e2)(v1 . e2) < 0 and (u2 . e1)(v1 . e2) < 0. The first is tested
//      for all pairs from B's face normals dotted with e1 once per edge of A; the others only for pairs
//      that pass it. The axis e1 x e2 (skipped when the edges are parallel within ~1e-3 rad,
//      RB_SAT_PARALLEL_SQ: the face normals cover that case) is normalised and turned towards u1 + v1
//      (it lies on A's arc); the edges are the supports along it, so the separation is n . (p2 - p1)
//      for any points p1, p2 of the two edges. Only edges that may come near the other hull are paired:
//      not an edge whose two ends lie beyond one face plane of the other hull moved out by
//      max(reach, -best face separation) (outcodes), which keeps every pair that can beat the faces
//      while the hulls overlap or make an edge contact while they are apart (rb_cx_sat_query); for
//      12-point rocks resting on each other that is ~5 of ~30 edges on each side, ~25 pairs of ~900.
// 3. Axis choice, as box-box (the same tolerances, collide_box_box.h and sat_tolerance.h), with the
//    least face distance of the two hulls (rb_cx_hull.size; a box's least half extent) in place of the
//    least half extent: B's face is the reference only if it separates by more than A's best face by
//    min(2.5 mm, size / 10) + 2% |separation|, and an edge pair only if it beats the better face by
//    min(2.5 mm, size / 10) + 5% |separation|, so resting stacks keep one reference face.
// 4. Face case: the reference face R with normal nR; the incident face is, among the faces around the
//    other hull's support vertex along -nR (it holds the deepest point), the one most anti-parallel to
//    nR. Its polygon is clipped by the side planes of R ((edge of R) x nR, through that edge;
//    Sutherland-Hodgman, rb_cx_clip). A point at height s above R's plane (cores) has separation
//    s - ra - rb, is kept when that is < margin, and is moved to midway between the rounded surfaces
//    (R's at height rR, the incident one's at s - rI): p - nR (s + rI - rR) / 2. At most 4 points are
//    kept (rb_cx_candidates, rb_manifold_reduce).
// 5. Edge case: one point midway between the closest points c1, c2 of the two edges (grown by the radii
//    along the axis n: (c1 + c2) / 2 + n (ra - rb) / 2), separation n . (c2 - c1) - ra - rb. When the
//    cores are apart, the largest separation over all axes is the better bound and is used, and the
//    edges' closest points must come within the reach of each other; an edge pair tried as a fallback
//    while the cores overlap must really cross (as box-box).
// 6. If the chosen case gives no point, the two other candidates are tried, best separation first.
// The normal always points from A to B (-nR when the reference face is B's).
//
// Feature ids (unique within a manifold, unchanged while the same features touch):
//   face case:  bit 30 = reference face on B, bits 23-29 = reference face, bits 0-22 = the incident
//               feature that made the point: an incident vertex (< RB_HULL_MAX_VERTICES), or
//               RB_HULL_MAX_VERTICES (1 + tag) + k for the crossing of the reference face's side plane k
//               with the polygon edge `tag`: an incident edge (< RB_CX_MAX_EDGES) or, at a corner of
//               the reference face, a side plane (RB_CX_TAG_PLANE + plane). The incident face is not
//               part of the id (as box-box: it flips among near-ties while the touching vertex or edge
//               stays the same);
//   edge case:  bit 31, bits 8-15 = edge of A, bits 0-7 = edge of B.
#ifndef RB_KERNELS_COLLIDE_CONVEX_CONVEX_H
#define RB_KERNELS_COLLIDE_CONVEX_CONVEX_H

#include "collide_box_box.h"
#include "collide_convex.h"

// What the separating-axis test found (cores, A's frame).
typedef struct rb_cx_sat {
    float sep_a, sep_b, sep_e; // best separation over A's faces, B's faces, the edge pairs
    int face_a, face_b;        // the faces that give them
    int edge_a, edge_b;        // the edge pair (-1 if no pair builds a Minkowski face)
    rb_float3 axis_e;          // its axis, unit, from A to B
} rb_cx_sat;

// Words of a vertex's outcode: one bit per face.
#define RB_CX_CODE_WORDS ((RB_HULL_MAX_FACES + 31) / 32)

// Faces of P against the vertices of Q: the best separation min over Q of n . v - d and its face.
// Returns 0 if a face separates by more than `reach`. Also Q's vertices' outcodes: bit f % 32 of
// code[RB_CX_CODE_WORDS j + f / 32] is set when Q's vertex j lies beyond P's plane f by more than `grow`
// (rb_cx_edges_near). The vertices are the outer loop, so that the inner one runs along P's plane arrays
// with no dependence from one face to the next but an OR (compilers vectorise it).
RB_FN int rb_cx_face_query(const rb_cx_hull *p, const rb_cx_hull *q, float reach, float grow, unsigned int *code,
                           float *best_sep, int *best_face)
{
    float lo[RB_HULL_MAX_FACES], th[RB_HULL_MAX_FACES];
    unsigned int bit[RB_HULL_MAX_FACES];
    int nf = p->nf4, words = (nf + 31) / 32;
    for (int f = 0; f < nf; ++f) {
        lo[f] = RB_FLT_MAX;
        th[f] = p->nd[f] + grow;
        bit[f] = 1u << (f & 31);
    }
    for (int j = 0; j < q->nv; ++j) {
        rb_float3 v = q->v[j];
        for (int w = 0; w < words; ++w) {
            int end = rb_mini(nf, 32 * w + 32);
            unsigned int acc = 0u;
            for (int f = 32 * w; f < end; ++f) {
                float t = p->nx[f] * v.x + p->ny[f] * v.y + p->nz[f] * v.z;
                lo[f] = t < lo[f] ? t : lo[f];
                acc |= bit[f] & (0u - (unsigned int)(t > th[f])); // branch-free: vectorises
            }
            code[RB_CX_CODE_WORDS * j + w] = acc;
        }
    }
    float best = -RB_FLT_MAX;
    int face = 0;
    for (int f = 0; f < p->nf; ++f) {
        float s = lo[f] - p->nd[f];
        if (s > best) {
            best = s;
            face = f;
        }
    }
    *best_sep = best;
    *best_face = face;
    return !(best > reach);
}

// The edges of h that may come within `grow` of the other hull (with nf faces): not those whose two ends
// lie beyond one plane of it by more than grow, whose outcodes (code, from rb_cx_face_query with the
// other hull as P) share a bit. Their indices in list[]; returns how many.
RB_FN int rb_cx_edges_near(const rb_cx_hull *h, const unsigned int *code, int nf, int *list)
{
    int n = 0, words = (nf + 31) / 32;
    for (int k = 0; k < h->ne; ++k) {
        int e = h->edge[k];
        int a = RB_CX_CODE_WORDS * rb_cx_edge_tail(e), b = RB_CX_CODE_WORDS * rb_cx_edge_head(e);
        unsigned int shared = code[a] & code[b];
        for (int w = 1; w < words; ++w)
            shared |= code[a + w] & code[b + w];
        list[n] = k;
        n += shared == 0u ? 1 : 0;
    }
    return n;
}

// Edge pairs that build a face of the Minkowski difference (see the top of this file), among edges
// la[0 .. na) of a and lb[0 .. nb) of b. Returns 0 as soon as one separates by more than `reach`.
RB_FN int rb_cx_edge_query(const rb_cx_hull *a, const rb_cx_hull *b, const int *la, int na, const int *lb, int nb,
                           float reach, rb_cx_sat *out)
{
    float fd[RB_HULL_MAX_FACES];
    float best = -RB_FLT_MAX;
    out->edge_a = -1;
    out->edge_b = -1;
    out->axis_e = rb_f3(0.0f, 1.0f, 0.0f);
    for (int ii = 0; ii < na && nb > 0; ++ii) {
        int i = la[ii];
        int ea = a->edge[i];
        rb_float3 pa = a->v[rb_cx_edge_tail(ea)];
        rb_float3 e1 = rb_sub(a->v[rb_cx_edge_head(ea)], pa);
        rb_float3 u1 = rb_cx_normal(a, rb_cx_edge_face0(ea)), v1 = rb_cx_normal(a, rb_cx_edge_face1(ea));
        float l1 = rb_len_sq(e1);
        for (int g = 0; g < b->nf4; ++g)
            fd[g] = b->nx[g] * e1.x + b->ny[g] * e1.y + b->nz[g] * e1.z;
        for (int jj = 0; jj < nb; ++jj) {
            int j = lb[jj];
            int eb = b->edge[j];
            float cu = fd[rb_cx_edge_face0(eb)], cv = fd[rb_cx_edge_face1(eb)];
            if (!(cu * cv < 0.0f))
                continue;
            rb_float3 pb = b->v[rb_cx_edge_tail(eb)];
            rb_float3 e2 = rb_sub(b->v[rb_cx_edge_head(eb)], pb);
            float au = rb_dot(u1, e2), av = rb_dot(v1, e2);
            if (!(au * av < 0.0f) || !(cu * av < 0.0f))
                continue;
            rb_float3 n = rb_cross(e1, e2);
            float l2 = rb_len_sq(n);
            if (l2 < RB_SAT_PARALLEL_SQ * l1 * rb_len_sq(e2))
                continue;
            n = rb_scale(n, 1.0f / rb_sqrtf(l2));
            if (rb_dot(n, rb_add(u1, v1)) < 0.0f)
                n = rb_neg(n);
            float s = rb_dot(n, rb_sub(pb, pa));
            if (s > reach)
                return 0;
            if (s > best) {
                best = s;
                out->edge_a = i;
                out->edge_b = j;
                out->axis_e = n;
            }
        }
    }
    out->sep_e = best;
    return 1;
}

// The separating-axis test of hulls a and b (b in a's frame). Returns 0 if an axis separates them by more
// than `reach`, else 1 with *out filled.
//
// The edge pairs are searched among the edges that may come near the other hull only. An edge pair
// matters only if it separates more than the best face, sep_f. With the hulls overlapping, the best axis
// is the face of the Minkowski difference nearest the origin, which holds the origin's projection: its
// two edges come within |s| < |sep_f| of each other, so each within |sep_f| of the other hull. With the
// hulls apart, an edge pair can make a contact only if its edges come within the reach of each other
// (rb_cx_edge_contact); a pair missed there could only have ended the search early, and the face
// contact that then runs finds no point closer than the hulls are. So an edge is paired only if it may
// come within grow = max(reach, -sep_f) of the other hull: not if both its ends lie beyond one face plane
// of the other hull by more than grow (their outcodes share a bit). The face queries make the outcodes
// for grow = the reach; a penetration deeper than that (rare) runs them again with the larger grow.
RB_FN int rb_cx_sat_query(const rb_cx_hull *a, const rb_cx_hull *b, float reach, rb_cx_sat *out)
{
    unsigned int code_a[RB_CX_CODE_WORDS * RB_HULL_MAX_VERTICES], code_b[RB_CX_CODE_WORDS * RB_HULL_MAX_VERTICES];
    int la[RB_CX_MAX_EDGES], lb[RB_CX_MAX_EDGES];
    // with a little room for rounding
    float grow = reach * 1.001f + 1e-5f, limit = reach;
    // pass 0: a's faces (b's outcodes), pass 1: b's faces (a's outcodes); passes 2 and 3 again with the
    // larger grow of a penetration deeper than the reach (rare). One call site: the GPU compilers inline
    // every call.
    for (int pass = 0; pass < 4; ++pass) {
        int on_b = pass & 1;
        float sep;
        int face;
        if (!rb_cx_face_query(on_b ? b : a, on_b ? a : b, limit, grow, on_b ? code_a : code_b, &sep, &face))
            return 0;
        if (pass < 2) {
            if (on_b) {
                out->sep_b = sep;
                out->face_b = face;
            } else {
                out->sep_a = sep;
                out->face_a = face;
            }
        }
        if (pass == 1) {
            float deep = -rb_maxf(out->sep_a, out->sep_b) * 1.001f + 1e-5f;
            if (!(deep > grow))
                break;
            grow = deep;
            limit = RB_FLT_MAX;
        }
    }
    int na = 0, nb = 0;
    for (int side = 0; side < 2 && (side == 0 || na > 0); ++side) { // one call site
        int count = rb_cx_edges_near(side ? b : a, side ? code_b : code_a, side ? a->nf4 : b->nf4, side ? lb : la);
        if (side)
            nb = count;
        else
            na = count;
    }
    return rb_cx_edge_query(a, b, la, na, lb, nb, reach, out);
}

// Face case with reference face fr of hull r (radius rr) and incident hull i (radius ri); flip = 1 when
// the reference is B. Writes the manifold (normal and points in world space, A's pose xa). Returns the
// number of points.
RB_FN int rb_cx_face_contact(const rb_cx_hull *r, int fr, float rr, const rb_cx_hull *i, float ri, int flip,
                             float margin, rb_xform xa, rb_manifold *m)
{
    rb_float3 nr = rb_cx_normal(r, fr);
    float dr = r->nd[fr];
    rb_float3 normal = rb_rotate(xa.q, flip ? rb_neg(nr) : nr);

    // the support vertex of i along -nr, then the most anti-parallel face around it
    int sv = 0;
    float lo = rb_dot(nr, i->v[0]);
    for (int j = 1; j < i->nv; ++j) {
        float d = rb_dot(nr, i->v[j]);
        if (d < lo) {
            lo = d;
            sv = j;
        }
    }
    int e0 = rb_hull_vertex_edge(i->h, sv), e = e0, fi = rb_hull_edge_face(i->h, e0);
    float best = RB_FLT_MAX;
    for (int k = 0; k < RB_HULL_MAX_VERTICES; ++k) {
        int f = rb_hull_edge_face(i->h, e);
        float c = rb_dot(rb_cx_normal(i, f), nr);
        if (c < best) {
            best = c;
            fi = f;
        }
        e = rb_hull_edge_next(i->h, e ^ 1); // the next half-edge leaving sv (twins are e, e ^ 1)
        if (e == e0)
            break;
    }

    // the incident polygon: vertex ids, and the edge leaving each vertex as its tag
    rb_float3 pa[RB_CX_MAX_POLY], pb[RB_CX_MAX_POLY];
    unsigned int ida[RB_CX_MAX_POLY], idb[RB_CX_MAX_POLY];
    int taga[RB_CX_MAX_POLY], tagb[RB_CX_MAX_POLY];
    int n = rb_mini(rb_hull_face_edge_count(i->h, fi), RB_HULL_MAX_VERTICES);
    e = rb_hull_face_first_edge(i->h, fi);
    for (int k = 0; k < n; ++k) {
        int v = rb_hull_edge_origin(i->h, e);
        pa[k] = i->v[v];
        ida[k] = (unsigned int)v;
        taga[k] = e >> 1;
        e = rb_hull_edge_next(i->h, e);
    }

    // clipped by the side planes of the reference face, ping-pong between the buffers
    int nsides = rb_mini(rb_hull_face_edge_count(r->h, fr), RB_HULL_MAX_VERTICES);
    e = rb_hull_face_first_edge(r->h, fr);
    rb_float3 a = r->v[rb_hull_edge_origin(r->h, e)];
    for (int k = 0; k < nsides; ++k) {
        e = rb_hull_edge_next(r->h, e);
        rb_float3 b = r->v[rb_hull_edge_origin(r->h, e)];
        rb_float3 sn = rb_cross(rb_sub(b, a), nr);
        float sd = rb_dot(sn, a);
        if (k & 1)
            n = rb_cx_clip(pb, idb, tagb, n, sn, sd, k, pa, ida, taga);
        else
            n = rb_cx_clip(pa, ida, taga, n, sn, sd, k, pb, idb, tagb);
        a = b;
    }
    const rb_float3 *poly = (nsides & 1) ? pb : pa;
    const unsigned int *ids = (nsides & 1) ? idb : ida;

    unsigned int base = ((unsigned int)flip << 30) | ((unsigned int)fr << 23);
    rb_cx_candidates cand;
    cand.n = 0;
    n = rb_mini(n, RB_CX_MAX_POLY);
    for (int k = 0; k <= n; ++k) {
        float s = k < n ? rb_dot(nr, poly[k]) - dr : 0.0f;
        float sep = s - rr - ri;
        if (k < n && !(sep < margin))
            continue;
        rb_manifold_point *c = rb_cx_candidates_next(&cand, normal, k == n, m);
        if (k == n)
            break;
        c->point = rb_xform_point(xa, rb_mad(poly[k], -0.5f * (s + ri - rr), nr));
        c->separation = sep;
        c->id = base | ids[k];
        cand.n++;
    }
    return m->count;
}

// Edge case: edge ka of a against edge kb of b, axis n (unit, a to b); sep_max = the largest separation
// of the cores over all axes (> 0: apart). Returns the number of points (0 or 1).
RB_FN int rb_cx_edge_contact(const rb_cx_hull *a, int ka, float ra, const rb_cx_hull *b, int kb, float rb, rb_float3 n,
                             float sep_max, float margin, int fallback, rb_xform xa, rb_manifold *m)
{
    int ea = a->edge[ka], eb = b->edge[kb];
    float s, t;
    rb_float3 c1, c2;
    rb_segment_segment_closest(a->v[rb_cx_edge_tail(ea)], a->v[rb_cx_edge_head(ea)], b->v[rb_cx_edge_tail(eb)],
                               b->v[rb_cx_edge_head(eb)], &s, &t, &c1, &c2);
    rb_float3 gap = rb_sub(c2, c1);
    float sep = rb_dot(gap, n);
    m->normal = rb_rotate(xa.q, n);
    m->count = 0;
    if (sep_max > 0.0f) {
        // apart: every axis's separation is a lower bound of the distance, the largest the best; the
        // edges are a contact only if they come within the reach of each other
        sep = rb_maxf(sep, sep_max);
        float reach = margin + ra + rb;
        if (!(rb_len_sq(gap) < reach * reach))
            return 0;
    } else if (fallback) {
        // overlapping, not the first choice: a contact only if the edges really cross
        rb_float3 lateral = rb_mad(gap, -sep, n);
        float tol = 0.05f * rb_fabsf(sep) + 1e-5f;
        if (!(rb_len_sq(lateral) <= tol * tol))
            return 0;
    }
    sep -= ra + rb;
    if (!(sep < margin))
        return 0;
    rb_float3 p = rb_mad(rb_scale(rb_add(c1, c2), 0.5f), 0.5f * (ra - rb), n);
    m->count = 1;
    m->points[0].point = rb_xform_point(xa, p);
    m->points[0].separation = sep;
    m->points[0].id = 0x80000000u | ((unsigned int)ka << 8) | (unsigned int)kb;
    return 1;
}

// Hull ha at pose xa rounded by ra against hull hb at pose xb rounded by rb.
RB_FN_CALLED void rb_cx_collide_hulls(rb_hull_view ha, rb_xform xa, float ra, rb_hull_view hb, rb_xform xb, float rb,
                               float margin, rb_manifold *m)
{
    rb_manifold_clear(m);
    float reach = margin + ra + rb;
    rb_float3 d = rb_sub(xb.p, xa.p);
    float far = rb_hull_bounding_radius(ha) + rb_hull_bounding_radius(hb) + reach;
    if (rb_len_sq(d) > far * far)
        return;
    rb_cx_hull a, b;
    rb_mat3 r = rb_mat3_from_quat(rb_quat_mul(rb_quat_conj(xa.q), xb.q));
    rb_float3 t = rb_inv_rotate(xa.q, d);
    rb_cx_hull_load(ha, 1, r, t, &a);
    rb_cx_hull_load(hb, 0, r, t, &b);
    rb_cx_sat q; // set in full by the query (initialised for the compilers that cannot see it)
    q.sep_a = q.sep_b = q.sep_e = -RB_FLT_MAX;
    q.face_a = q.face_b = 0;
    q.edge_a = q.edge_b = -1;
    q.axis_e = rb_f3(0.0f, 1.0f, 0.0f);
    if (!rb_cx_sat_query(&a, &b, reach, &q))
        return;

    // axis choice (see the top of this file), with the tolerances' relative parts on the separations
    // of the rounded shapes
    float size = rb_minf(a.size, b.size);
    float tol_face = rb_minf(RB_BOX_BOX_FACE_TOL_ABS, 0.1f * size) + RB_BOX_BOX_FACE_TOL_REL * rb_fabsf(q.sep_a - ra - rb);
    int use_b = q.sep_b > q.sep_a + tol_face;
    float sep_f = rb_maxf(q.sep_a, q.sep_b);
    float tol_edge = rb_sat_edge_tolerance(size, sep_f - ra - rb);
    int use_edge = q.edge_a >= 0 && q.sep_e > sep_f + tol_edge;

    int first = use_edge ? 2 : (use_b ? 1 : 0);
    float sep_max = rb_maxf(sep_f, q.edge_a >= 0 ? q.sep_e : -RB_FLT_MAX);
    for (int attempt = 0; attempt < 3; ++attempt) {
        int kind = first;
        if (attempt > 0) {
            // the two others, in order of separation (ties: A's face, B's face, edge)
            int o1 = first == 0 ? 1 : 0, o2 = first == 2 ? 1 : 2;
            float s1 = o1 == 0 ? q.sep_a : q.sep_b, s2 = o2 == 1 ? q.sep_b : q.sep_e;
            int better2 = s2 > s1;
            kind = (attempt == 1) == better2 ? o2 : o1;
        }
        int count = 0;
        if (kind < 2) // one call site for both faces (the GPU compilers inline every call)
            count = rb_cx_face_contact(kind ? &b : &a, kind ? q.face_b : q.face_a, kind ? rb : ra, kind ? &a : &b,
                                       kind ? ra : rb, kind, margin, xa, m);
        else if (q.edge_a >= 0)
            count = rb_cx_edge_contact(&a, q.edge_a, ra, &b, q.edge_b, rb, q.axis_e, sep_max, margin, attempt > 0, xa,
                                       m);
        if (count > 0)
            return;
    }
    m->count = 0;
}

// Convex A, or a box A (its hull view: the pool's unit cube at its half extents, rb_geom_make_pooled),
// against convex B. A shape without its hull view (made without the pool, rb_geom_make) has no contact.
RB_FN void rb_collide_convex_convex(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    if (!a->hull.rec || !b->hull.rec) {
        rb_manifold_clear(m);
        return;
    }
    float ra = a->type == RB_GEOM_CONVEX ? a->params.x : 0.0f;
    rb_cx_collide_hulls(a->hull, a->xf, ra, b->hull, b->xf, b->params.x, margin, m);
}

// Box A against convex B: convex-convex with the box's hull view.
RB_FN void rb_collide_box_convex(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_collide_convex_convex(a, b, margin, m);
}

#endif
