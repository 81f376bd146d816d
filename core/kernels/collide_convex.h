// What the convex narrow phase (collide_convex_convex.h, collide_convex_plane.h,
// collide_sphere_convex.h, collide_capsule_convex.h) and the convex ray cast (raycast.h) share:
// - a hull copied once per pair into the frame of the query (rb_cx_hull): vertices, planes (as separate
//   arrays of x, y, z and offset, so that a loop over the faces is a loop over arrays, which C compilers
//   vectorise) and its edges packed as small integers, so that the inner loops read private memory only;
// - candidate points reduced in stages (rb_cx_candidates): a clipped face can give up to
//   2 RB_HULL_MAX_VERTICES candidates, rb_manifold_reduce takes 16, so every time 16 are held they are
//   reduced to 4 and the next ones follow (the deepest point always survives);
// - Sutherland-Hodgman clipping of a polygon by one plane, with the feature tags of box-box;
// - the exact closest point of a hull to a point (the sphere's centre, a ray's origin);
// - the support function of a convex shape (for conservative advancement, time_of_impact.h).
//
// A convex shape is its hull (the "core") grown by its rounding radius params.x (>= 0). The separating
// axis tests run on the cores with the reach grown by the radii; separations are the cores' less the
// radii, and points are placed midway between the rounded surfaces.
#ifndef RB_KERNELS_COLLIDE_CONVEX_H
#define RB_KERNELS_COLLIDE_CONVEX_H

#include "closest_points.h"
#include "manifold_reduce.h"
#include "sat_tolerance.h"
#include "shape_geom.h"

#define RB_CX_MAX_EDGES (RB_HULL_MAX_HALF_EDGES / 2)
// Clipping a polygon of n vertices by m planes leaves at most n + m; float noise at points on a plane
// can add a few (the buffers are bounded anyway).
#define RB_CX_MAX_POLY (2 * RB_HULL_MAX_VERTICES + 8)
// Feature tag of a polygon edge that lies on the reference face's side plane k (a corner of the
// reference face): after the incident edges 0 .. RB_CX_MAX_EDGES - 1.
#define RB_CX_TAG_PLANE RB_CX_MAX_EDGES

// A hull in the frame of a query: R v + t for every vertex, the planes turned alike. Edge k (half-edges
// 2k and 2k + 1) is packed as face(2k) | face(2k + 1) << 8 | origin(2k) << 16 | origin(2k + 1) << 24
// (every index < 256: RB_HULL_MAX_FACES = 124, RB_HULL_MAX_VERTICES = 64); its direction
// v[origin(2k + 1)] - v[origin(2k)] is parallel to n[face(2k)] x n[face(2k + 1)] (faces run
// counter-clockwise seen from outside).
typedef struct rb_cx_hull {
    rb_hull_view h;
    int nv, nf, nf4, ne; // vertices, faces (nf4: padded to a multiple of 4, see rb_cx_hull_load), edges
    float size; // least distance from the hull origin to a face plane (0 if the origin is outside): its
                // thinnest half, for the absolute part of the axis tolerances (a box's least half extent)
    rb_float3 v[RB_HULL_MAX_VERTICES];
    float nx[RB_HULL_MAX_FACES], ny[RB_HULL_MAX_FACES], nz[RB_HULL_MAX_FACES], nd[RB_HULL_MAX_FACES]; // planes
    int edge[RB_CX_MAX_EDGES];
} rb_cx_hull;

RB_FN rb_float3 rb_cx_normal(const rb_cx_hull *h, int f) { return rb_f3(h->nx[f], h->ny[f], h->nz[f]); }

RB_FN int rb_cx_edge_face0(int e) { return e & 255; }
RB_FN int rb_cx_edge_face1(int e) { return (e >> 8) & 255; }
RB_FN int rb_cx_edge_tail(int e) { return (e >> 16) & 255; }
RB_FN int rb_cx_edge_head(int e) { return (e >> 24) & 255; }

// Hull h with rotation matrix r (rows) and translation t applied; identity = 1 skips them. The planes
// are padded to a multiple of 4 (nf4) with planes no point is beyond (normal 0, offset RB_FLT_MAX), so
// that loops over them may run 4 at a time.
RB_FN void rb_cx_hull_load(rb_hull_view h, int identity, rb_mat3 r, rb_float3 t, rb_cx_hull *out)
{
    rb_float4 head = h.rec[0];
    int nv = rb_mini((int)head.x, RB_HULL_MAX_VERTICES), nf = rb_mini((int)head.y, RB_HULL_MAX_FACES);
    int ne = rb_mini((int)head.z / 2, RB_CX_MAX_EDGES);
    RB_GLOBAL const rb_float4 *vert = h.rec + RB_HULL_HEADER;
    RB_GLOBAL const rb_float4 *plane = vert + (int)head.x;
    RB_GLOBAL const rb_float4 *hedges = plane + 2 * (int)head.y;
    out->h = h;
    out->nv = nv;
    out->nf = nf;
    out->nf4 = (nf + 3) & ~3;
    out->ne = ne;
    rb_float3 sc = h.scaled ? h.scale : rb_f3(1.0f, 1.0f, 1.0f);
    for (int i = 0; i < nv; ++i) {
        rb_float3 v = rb_mul(rb_xyz(vert[i]), sc);
        out->v[i] = identity ? v : rb_add(rb_mat3_mulv(r, v), t);
    }
    float size = RB_FLT_MAX;
    for (int f = 0; f < nf; ++f) {
        rb_float4 p = plane[f];
        if (h.scaled) // an axis-aligned face of the unit cube: d = |n| . scale (rb_hull_plane)
            p.w = rb_dot(rb_abs3(rb_xyz(p)), h.scale);
        size = rb_minf(size, p.w);
        if (!identity) {
            rb_float3 n = rb_mat3_mulv(r, rb_xyz(p));
            p = rb_f4_from3(n, p.w + rb_dot(n, t));
        }
        out->nx[f] = p.x;
        out->ny[f] = p.y;
        out->nz[f] = p.z;
        out->nd[f] = p.w;
    }
    for (int f = nf; f < out->nf4; ++f) {
        out->nx[f] = 0.0f;
        out->ny[f] = 0.0f;
        out->nz[f] = 0.0f;
        out->nd[f] = RB_FLT_MAX;
    }
    out->size = rb_maxf(size, 0.0f);
    for (int k = 0; k < ne; ++k) {
        rb_float4 e0 = hedges[2 * k], e1 = hedges[2 * k + 1];
        out->edge[k] = (int)e0.w | ((int)e1.w << 8) | ((int)e0.x << 16) | ((int)e1.x << 24);
    }
}

// ---- candidate points, reduced in stages ----

typedef struct rb_cx_candidates {
    rb_manifold_point p[RB_MAX_CANDIDATE_POINTS];
    int n;
} rb_cx_candidates;

// Makes room for one more candidate: a full buffer is reduced to the 4 points rb_manifold_reduce keeps,
// written to m (which is the result if no candidate follows). Returns the slot for the next candidate.
// The routines call it for every candidate and once more at the end, so that rb_manifold_reduce has one
// call site (the GPU compilers inline every call).
//
// Before the reduction, when at least 3 candidates touch (separation within RB_CX_CONTACT_BAND of the
// deepest, or of 0 while nothing penetrates), the others go: a rock resting tilted on the ground has
// vertices 1-2 cm deep and others 1-2 cm up within the speculative margin, and rb_manifold_reduce,
// which spreads the points by area, kept the high ones and left penetrating vertices without a row
// (standard `rocks`: rocks rested 2.6 cm into the ground). Flat contacts (face on face) have every
// point in the band and reduce as before.
#define RB_CX_CONTACT_BAND 2e-3f

RB_FN void rb_cx_keep_touching(rb_cx_candidates *c)
{
    float deepest = RB_FLT_MAX;
    for (int i = 0; i < c->n; ++i)
        deepest = rb_minf(deepest, c->p[i].separation);
    float band = rb_maxf(deepest, 0.0f) + RB_CX_CONTACT_BAND;
    int touching = 0;
    for (int i = 0; i < c->n; ++i)
        touching += c->p[i].separation <= band;
    if (touching < 3)
        return;
    int k = 0;
    for (int i = 0; i < c->n; ++i)
        if (c->p[i].separation <= band)
            c->p[k++] = c->p[i];
    c->n = k;
}

RB_FN rb_manifold_point *rb_cx_candidates_next(rb_cx_candidates *c, rb_float3 normal, int last, rb_manifold *m)
{
    if (last || c->n >= RB_MAX_CANDIDATE_POINTS) {
        if (c->n > RB_MAX_MANIFOLD_POINTS)
            rb_cx_keep_touching(c);
        rb_manifold_reduce(c->p, c->n, normal, m);
        for (int i = 0; i < m->count; ++i)
            c->p[i] = m->points[i];
        c->n = m->count;
    }
    return &c->p[c->n < RB_MAX_CANDIDATE_POINTS ? c->n : RB_MAX_CANDIDATE_POINTS - 1];
}

// ---- clipping ----

// One Sutherland-Hodgman step: keep the part of polygon (ip, n) with pn . x <= pd. Every vertex carries
// its feature id and the tag of the polygon edge that leaves it; a crossing of plane `plane` with the
// edge tagged `tag` gets the id RB_HULL_MAX_VERTICES (1 + tag) + plane (incident vertices keep their
// index, < RB_HULL_MAX_VERTICES), and the edge that leaves a crossing on the way out runs along the
// plane (tag RB_CX_TAG_PLANE + plane). A vertex on the plane is kept and makes no crossing.
RB_FN int rb_cx_clip(const rb_float3 *ip, const unsigned int *iid, const int *itag, int n, rb_float3 pn, float pd,
                     int plane, rb_float3 *op, unsigned int *oid, int *otag)
{
    int count = 0;
    if (n <= 0)
        return 0;
    float d0 = rb_dot(pn, ip[0]) - pd, da = d0;
    for (int i = 0; i < n && i < RB_CX_MAX_POLY; ++i) {
        int j = i + 1 == n ? 0 : i + 1;
        float db = j == 0 ? d0 : rb_dot(pn, ip[j]) - pd;
        if (da <= 0.0f && count < RB_CX_MAX_POLY) {
            op[count] = ip[i];
            oid[count] = iid[i];
            otag[count] = (da == 0.0f && db > 0.0f) ? RB_CX_TAG_PLANE + plane : itag[i];
            ++count;
        }
        if (((da < 0.0f && db > 0.0f) || (da > 0.0f && db < 0.0f)) && count < RB_CX_MAX_POLY) {
            float t = da / (da - db);
            op[count] = rb_lerp3(ip[i], ip[j], t);
            oid[count] = (unsigned int)(RB_HULL_MAX_VERTICES * (1 + itag[i]) + plane);
            otag[count] = da < 0.0f ? RB_CX_TAG_PLANE + plane : itag[i];
            ++count;
        }
        da = db;
    }
    return count;
}

// ---- closest point of a hull to a point ----

// Signed distance from p to hull h's surface (negative inside), all in the hull frame: the closest
// surface point q and the hull's outward unit normal there (p = q + distance * normal). Outside, q is
// exact: the projection of p on a face it sees if it falls inside that face (the hull lies behind the
// face's plane, so nothing is closer), else the closest point over the edges of the faces it sees (the
// vertices are the edges' ends). Inside (or on the surface), q is on the face of least penetration
// (the plane p is least deep below; ties go to the lowest face). *feature is the face (0 .. F - 1), or
// RB_HULL_MAX_FACES + the edge whose point is closest.
RB_FN_CALLED float rb_cx_point_hull(rb_hull_view h, rb_float3 p, rb_float3 *q, rb_float3 *normal, int *feature)
{
    int nf = rb_mini(rb_hull_face_count(h), RB_HULL_MAX_FACES);
    float s[RB_HULL_MAX_FACES];
    float smax = -RB_FLT_MAX;
    int fmax = 0;
    for (int f = 0; f < nf; ++f) {
        rb_float4 pl = rb_hull_plane(h, f);
        s[f] = rb_dot(rb_xyz(pl), p) - pl.w;
        if (s[f] > smax) {
            smax = s[f];
            fmax = f;
        }
    }
    rb_float3 nmax = rb_xyz(rb_hull_plane(h, fmax));
    *feature = fmax;
    if (!(smax > 0.0f)) {
        *q = rb_mad(p, -smax, nmax);
        *normal = nmax;
        return smax;
    }
    // a face that sees p and holds its projection
    for (int f = 0; f < nf; ++f) {
        if (!(s[f] > 0.0f))
            continue;
        rb_float3 n = rb_xyz(rb_hull_plane(h, f));
        rb_float3 x = rb_mad(p, -s[f], n);
        int e = rb_hull_face_first_edge(h, f), cnt = rb_hull_face_edge_count(h, f), inside = 1;
        for (int k = 0; k < cnt && k < RB_HULL_MAX_VERTICES; ++k) {
            int next = rb_hull_edge_next(h, e);
            rb_float3 a = rb_hull_vertex(h, rb_hull_edge_origin(h, e));
            rb_float3 b = rb_hull_vertex(h, rb_hull_edge_origin(h, next));
            if (rb_dot(rb_cross(rb_sub(b, a), n), rb_sub(x, a)) > 0.0f) {
                inside = 0;
                break;
            }
            e = next;
        }
        if (inside) {
            *q = x;
            *normal = n;
            *feature = f;
            return s[f];
        }
    }
    // the edges of the faces that see p
    int ne = rb_mini(rb_hull_half_edge_count(h) / 2, RB_CX_MAX_EDGES);
    float best = RB_FLT_MAX;
    rb_float3 bq = rb_mad(p, -smax, nmax);
    for (int k = 0; k < ne; ++k) {
        rb_float4 e0 = rb_hull_half_edge(h, 2 * k), e1 = rb_hull_half_edge(h, 2 * k + 1);
        if (!(s[(int)e0.w] > 0.0f) && !(s[(int)e1.w] > 0.0f))
            continue;
        rb_float3 x = rb_segment_closest_point(p, rb_hull_vertex(h, (int)e0.x), rb_hull_vertex(h, (int)e1.x));
        float d2 = rb_len_sq(rb_sub(p, x));
        if (d2 < best) {
            best = d2;
            bq = x;
            *feature = RB_HULL_MAX_FACES + k;
        }
    }
    float dist = rb_sqrtf(best);
    *q = bq;
    *normal = dist > 0.0f ? rb_scale(rb_sub(p, bq), 1.0f / dist) : nmax;
    return dist;
}

// ---- support ----

// The largest n . x over a convex shape (or a box with its hull view) g: its hull's vertices at its
// pose, grown by the rounding radius (boxes: none).
RB_FN float rb_convex_support(const rb_geom *g, rb_float3 n)
{
    rb_float3 l = rb_inv_rotate(g->xf.q, n);
    int nv = rb_hull_vertex_count(g->hull);
    float best = -RB_FLT_MAX;
    for (int i = 0; i < nv && i < RB_HULL_MAX_VERTICES; ++i)
        best = rb_maxf(best, rb_dot(l, rb_hull_vertex(g->hull, i)));
    float radius = g->type == RB_GEOM_CONVEX ? g->params.x : 0.0f;
    return rb_dot(n, g->xf.p) + best + radius * rb_len(n);
}

#endif
