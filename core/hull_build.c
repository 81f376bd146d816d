// Convex hulls of point clouds (core/hull_build.h), all in double.
//
// 1. Weld. The tolerance is tol = max(min(weld, extent / 100), 1e-6 extent, 2 FLT_EPSILON max|x|), with
//    extent the diagonal of the cloud's box: the weld the caller asks for, never coarser than a hundredth
//    of the cloud (rubble.h's rb_hull_def), never finer than float input resolves. A point within tol of a
//    point kept before it is dropped (a hash grid of tol-wide cells: each point looks at 27 of them).
// 2. Triangulate: quickhull, incremental and capped. From an extreme tetrahedron, the point farthest
//    outside the hull over all faces (of those within tol of the farthest, the one farthest from the face's
//    centre: a corner) is added, until no point is more than tol outside or the hull has the cap's number
//    of vertices. The farthest point along a normal is an extreme point of the cloud, so a capped hull keeps
//    the points that span the cloud best, as a farthest-point sampling does. The triangulation is exact on
//    the points snapped to a grid of 2^-28 of the cloud's size (error < 1e-8 extent, far below tol): which
//    triangles a point sees is an exact sign in 64-bit integers, so the visible region is always a disc
//    and the triangles always a convex polyhedron, whatever the degeneracies; distances are taken to the
//    snapped planes, which slivers cannot tilt. The tolerance only decides which points are added. An
//    insertion sorts again only the points of the triangles it removes: O(n) work per vertex, and the
//    triangulation never holds more than 2 * 64 vertices. Memory is O(n) (malloc, all freed).
// 3. Merge: of the adjacent groups of triangles whose union is a disc, lies within tol of a plane and
//    turns no more than tol the wrong way, the flattest pair is merged, as long as every face keeps three
//    corners and a vertex left on only two faces lies within tol of the straight edge that replaces it.
//    Vertices inside a face or on such an edge are dropped. A vertex still within tol / 4 outside the chord
//    of its neighbours on a face, or inside it (three or more faces around it), is left out of the cloud and
//    step 2 starts again: the faces come out strictly convex.
// 4. Cap: the cap counts the merged mesh's vertices. If merging left fewer and points are still outside,
//    the triangulation grows by the difference and is merged again; if that passes the cap, the smaller
//    mesh is kept (so a capped hull may have fewer vertices than the cap).
// 5. Check: Euler, every vertex on three faces, strictly convex faces within 2 tol of their planes, every
//    vertex within 2 tol behind every plane. A failing mesh is merged again at twice the tolerance (a guard:
//    never seen in the tests).
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hull_build.h"

// The triangulation may hold more vertices than the cap while flat ones are merged away (see hb_build).
#define HB_MAX_TRI_VERTICES (2 * RB_HULL_MAX_VERTICES)
#define HB_MAX_TRIS (2 * HB_MAX_TRI_VERTICES) // a triangulated hull of V vertices has 2V - 4 triangles
#define HB_TRI_POOL (4 * HB_MAX_TRIS)        // during an insertion the visible triangles die, new ones are born
#define HB_SNAP_BITS 28 // |snapped coordinate| <= 2^28 + 1: exact orientation in 64-bit integers
#define HB_CELL_BITS 21 // grid cells per axis <= 1e6 < 2^21 (tol >= 1e-6 extent)
#define HB_MERGE_TRIES 4  // doublings of the merge tolerance before giving up (a guard: never seen)
#define HB_MAX_DROPS 64   // vertices left out for lying on their neighbours' chord (the tests see 4 at most)
#define HB_MAX_RESCUES 16 // passes putting back points dropped too early, per triangulation (1 at most seen)

static void hb_fail(char *why, size_t why_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void hb_fail(char *why, size_t why_size, const char *fmt, ...)
{
    if (!why || why_size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void sub3(const double a[3], const double b[3], double r[3])
{
    r[0] = a[0] - b[0];
    r[1] = a[1] - b[1];
    r[2] = a[2] - b[2];
}

static void cross3(const double a[3], const double b[3], double r[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    r[0] = x;
    r[1] = y;
    r[2] = z;
}

static double dist_sq3(const double a[3], const double b[3])
{
    double d[3];
    sub3(a, b, d);
    return dot3(d, d);
}

// Sign of a . c, exactly, for |a_i| < 2^30 and |c_i| < 2^61: c_i = hi_i 2^31 + lo_i splits each product
// into two that fit in 64 bits, and the two sums are then combined without rounding.
static int exact_dot_sign(const int64_t a[3], const int64_t c[3])
{
    const int64_t base = (int64_t)1 << 31;
    int64_t hs = 0, ls = 0;
    for (int i = 0; i < 3; ++i) {
        int64_t hi = c[i] / base, lo = c[i] - hi * base; // |lo| < 2^31, |hi| <= 2^30
        hs += a[i] * hi;                                 // |sum| < 3 * 2^60
        ls += a[i] * lo;                                 // |sum| < 3 * 2^61
    }
    int64_t carry = ls / base;
    hs += carry;
    ls -= carry * base; // a . c = hs 2^31 + ls with |ls| < 2^31
    if (hs != 0)
        return hs > 0 ? 1 : -1;
    return (ls > 0) - (ls < 0);
}

// ---------------------------------------------------------------------------------------------------------
// The triangulated hull under construction.

typedef struct hb_tri {
    int v[3];   // points, counter-clockwise seen from outside
    int adj[3]; // triangle across edge i (v[i] -> v[i + 1])
    int live, mark;
    int outside;      // first point of its outside set (linked through hb_hull.next), -1 if none
    int best;         // the farthest point of that set
    double best_dist; // and its distance
    int64_t qn[3];    // exact normal of the snapped points
    double n[3], off, c[3]; // unit normal and offset of the snapped plane (grid units), centroid
} hb_tri;

typedef struct hb_hull {
    int n;          // distinct points
    double (*p)[3]; // centred on the cloud's box
    int32_t (*q)[3];// snapped
    int *src;       // input index of each distinct point
    int *next;      // outside-set links
    int *fan;       // during an insertion: the new triangle starting at a horizon point
    int *stamp;     // vertex counting
    int *pending;   // points of the dying triangles' outside sets
    int *cand, ncand; // the points the hull is built from: the distinct points not left out
    int stamp_now;
    double tol, step; // step: the snapping grid
    hb_tri tri[HB_TRI_POOL];
    int tri_top, free_count, free_ids[HB_TRI_POOL];
    int vis[HB_TRI_POOL], other[HB_TRI_POOL];
    int hz_a[3 * HB_TRI_POOL], hz_b[3 * HB_TRI_POOL], hz_g[3 * HB_TRI_POOL];
    int vertex_count;
    int rescues; // passes of hb_rescue that found points, in this triangulation
} hb_hull;

static int hb_alloc_tri(hb_hull *h)
{
    int t;
    if (h->free_count > 0)
        t = h->free_ids[--h->free_count];
    else if (h->tri_top < HB_TRI_POOL)
        t = h->tri_top++;
    else
        return -1;
    hb_tri *tr = &h->tri[t];
    memset(tr, 0, sizeof *tr);
    tr->live = 1;
    tr->outside = -1;
    tr->best = -1;
    tr->best_dist = -INFINITY;
    return t;
}

// A triangle's plane is that of its snapped points, on which the triangulation is exact: every point
// inside it is behind every plane, also for slivers (nearly collinear triangles, as points along an edge
// of the cloud make), whose plane through the input coordinates could point anywhere.
static void hb_tri_geometry(hb_hull *h, int t)
{
    hb_tri *tr = &h->tri[t];
    const int32_t *qa = h->q[tr->v[0]], *qb = h->q[tr->v[1]], *qc = h->q[tr->v[2]];
    int64_t u[3], w[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = (int64_t)qb[k] - qa[k];
        w[k] = (int64_t)qc[k] - qa[k];
    }
    tr->qn[0] = u[1] * w[2] - u[2] * w[1];
    tr->qn[1] = u[2] * w[0] - u[0] * w[2];
    tr->qn[2] = u[0] * w[1] - u[1] * w[0];
    double n[3] = {(double)tr->qn[0], (double)tr->qn[1], (double)tr->qn[2]}, len = sqrt(dot3(n, n));
    for (int k = 0; k < 3; ++k) {
        tr->n[k] = len > 0.0 ? n[k] / len : 0.0;
        tr->c[k] = (h->p[tr->v[0]][k] + h->p[tr->v[1]][k] + h->p[tr->v[2]][k]) / 3.0;
    }
    double qad[3] = {qa[0], qa[1], qa[2]};
    tr->off = dot3(tr->n, qad);
}

// Distance of point i above triangle t's (snapped) plane.
static double hb_dist(const hb_hull *h, int t, int i)
{
    const int32_t *q = h->q[i];
    double x[3] = {q[0], q[1], q[2]};
    return (dot3(h->tri[t].n, x) - h->tri[t].off) * h->step;
}

// Whether point i is strictly above triangle t, exactly (snapped points).
static int hb_sees(const hb_hull *h, int t, int i)
{
    const int32_t *a = h->q[h->tri[t].v[0]], *p = h->q[i];
    int64_t d[3] = {(int64_t)p[0] - a[0], (int64_t)p[1] - a[1], (int64_t)p[2] - a[2]};
    return exact_dot_sign(d, h->tri[t].qn) > 0;
}

// Whether i beats the triangle's farthest point so far: farther from the plane, then the lower index.
static int hb_better(const hb_hull *h, int t, int i, double d)
{
    const hb_tri *tr = &h->tri[t];
    return tr->best < 0 || d > tr->best_dist || (d == tr->best_dist && i < tr->best);
}

static void hb_assign(hb_hull *h, int t, int i, double d)
{
    hb_tri *tr = &h->tri[t];
    if (hb_better(h, t, i, d)) {
        tr->best = i;
        tr->best_dist = d;
    }
    h->next[i] = tr->outside;
    tr->outside = i;
}

// Gives point i to the triangle (of tris[0 .. count)) it is farthest above, if more than tol.
static void hb_assign_best(hb_hull *h, const int *tris, int count, int i)
{
    int best = -1;
    double best_d = h->tol;
    for (int k = 0; k < count; ++k) {
        double d = hb_dist(h, tris[k], i);
        if (d > best_d) {
            best_d = d;
            best = tris[k];
        }
    }
    if (best >= 0)
        hb_assign(h, best, i, best_d);
}

static void hb_link(hb_hull *h, int t, int a, int b, int u)
{
    for (int k = 0; k < 3; ++k)
        if (h->tri[t].v[k] == a && h->tri[t].v[(k + 1) % 3] == b)
            h->tri[t].adj[k] = u;
}

static void hb_count_vertices(hb_hull *h)
{
    int count = 0;
    h->stamp_now++;
    for (int t = 0; t < h->tri_top; ++t) {
        if (!h->tri[t].live)
            continue;
        for (int k = 0; k < 3; ++k) {
            int v = h->tri[t].v[k];
            if (h->stamp[v] != h->stamp_now) {
                h->stamp[v] = h->stamp_now;
                count++;
            }
        }
    }
    h->vertex_count = count;
}

// The tetrahedron a, b, c, d with d behind a b c (exactly, on the snapped points), outside sets filled.
static void hb_start(hb_hull *h, int a, int b, int c, int d)
{
    const int faces[4][3] = {{a, b, c}, {a, d, b}, {a, c, d}, {b, d, c}};
    int ids[4];
    for (int f = 0; f < 4; ++f) {
        ids[f] = hb_alloc_tri(h);
        memcpy(h->tri[ids[f]].v, faces[f], sizeof faces[f]);
        hb_tri_geometry(h, ids[f]);
    }
    for (int f = 0; f < 4; ++f) // each edge's twin is the reversed edge of another face
        for (int k = 0; k < 3; ++k) {
            int x = h->tri[ids[f]].v[k], y = h->tri[ids[f]].v[(k + 1) % 3];
            for (int g = 0; g < 4; ++g)
                if (g != f)
                    hb_link(h, ids[g], y, x, ids[f]);
        }
    for (int k = 0; k < h->ncand; ++k) {
        int i = h->cand[k];
        if (i != a && i != b && i != c && i != d)
            hb_assign_best(h, ids, 4, i);
    }
    hb_count_vertices(h);
}

// Recomputes triangle t's farthest point after point i left its outside set.
static void hb_drop_point(hb_hull *h, int t, int i)
{
    hb_tri *tr = &h->tri[t];
    int *link = &tr->outside;
    while (*link != -1 && *link != i)
        link = &h->next[*link];
    if (*link == i)
        *link = h->next[i];
    tr->best = -1;
    tr->best_dist = -INFINITY;
    for (int j = tr->outside; j != -1; j = h->next[j]) {
        double d = hb_dist(h, t, j);
        if (hb_better(h, t, j, d)) {
            tr->best = j;
            tr->best_dist = d;
        }
    }
}

// The point of t0's outside set to add: of those within tol of the farthest, the one farthest from the
// triangle's centroid (then the lowest index). The points within tol of the top lie near a face of the
// cloud's hull, and the farthest of them from any point is a corner of that face: a cube given with points
// on its faces and edges gets its 8 corners first, also when rounding has tilted the faces a little.
static int hb_pick(const hb_hull *h, int t0)
{
    const hb_tri *tr = &h->tri[t0];
    int best = tr->best;
    double best_c = dist_sq3(h->p[best], tr->c);
    for (int i = tr->outside; i != -1; i = h->next[i]) {
        double d = hb_dist(h, t0, i);
        if (d < tr->best_dist - h->tol || d <= h->tol)
            continue;
        double c = dist_sq3(h->p[i], tr->c);
        if (c > best_c || (c == best_c && i < best)) {
            best = i;
            best_c = c;
        }
    }
    return best;
}

// Adds point p of triangle t0's outside set to the hull. Returns 0 only if the triangle pool overflows (it
// cannot for hulls of at most 64 vertices).
static int hb_add(hb_hull *h, int t0, int p)
{
    if (!hb_sees(h, t0, p)) { // p more than tol above the snapped plane is above it: a guard against rounding
        hb_drop_point(h, t0, p);
        return 1;
    }
    // the visible triangles: connected, and a disc (exact test on a convex polyhedron)
    int nvis = 1, nother = 0;
    h->vis[0] = t0;
    h->tri[t0].mark = 1;
    for (int k = 0; k < nvis; ++k) {
        hb_tri *tr = &h->tri[h->vis[k]];
        for (int e = 0; e < 3; ++e) {
            int u = tr->adj[e];
            if (h->tri[u].mark)
                continue;
            if (hb_sees(h, u, p)) {
                h->tri[u].mark = 1;
                h->vis[nvis++] = u;
            } else {
                h->tri[u].mark = 2;
                h->other[nother++] = u;
            }
        }
    }
    int nh = 0, npend = 0;
    for (int k = 0; k < nvis; ++k) {
        hb_tri *tr = &h->tri[h->vis[k]];
        for (int e = 0; e < 3; ++e)
            if (h->tri[tr->adj[e]].mark != 1) {
                h->hz_a[nh] = tr->v[e];
                h->hz_b[nh] = tr->v[(e + 1) % 3];
                h->hz_g[nh] = tr->adj[e];
                nh++;
            }
        for (int i = tr->outside; i != -1; i = h->next[i])
            if (i != p)
                h->pending[npend++] = i;
    }
    for (int k = 0; k < nother; ++k)
        h->tri[h->other[k]].mark = 0;
    for (int k = 0; k < nvis; ++k) {
        h->tri[h->vis[k]].live = 0;
        h->tri[h->vis[k]].mark = 0;
        h->free_ids[h->free_count++] = h->vis[k];
    }
    // a fan of new triangles (a, b, p) over the horizon edges a -> b
    int *created = h->other; // reused: the marks are cleared
    for (int k = 0; k < nh; ++k) {
        int t = hb_alloc_tri(h);
        if (t < 0)
            return 0;
        created[k] = t;
        hb_tri *tr = &h->tri[t];
        tr->v[0] = h->hz_a[k];
        tr->v[1] = h->hz_b[k];
        tr->v[2] = p;
        tr->adj[0] = h->hz_g[k];
        hb_link(h, h->hz_g[k], h->hz_b[k], h->hz_a[k], t);
        h->fan[h->hz_a[k]] = t;
    }
    for (int k = 0; k < nh; ++k) {
        int t = created[k], u = h->fan[h->hz_b[k]];
        if (u < 0)
            return 0; // the horizon is not a cycle: impossible with exact tests
        h->tri[t].adj[1] = u; // b -> p is the twin of the next fan triangle's p -> b
        h->tri[u].adj[2] = t;
    }
    for (int k = 0; k < nh; ++k) {
        h->fan[h->hz_a[k]] = -1;
        hb_tri_geometry(h, created[k]);
    }
    for (int k = 0; k < npend; ++k)
        hb_assign_best(h, created, nh, h->pending[k]);
    hb_count_vertices(h);
    return 1;
}

// ---------------------------------------------------------------------------------------------------------
// Merging the triangles into planar faces.

typedef struct hb_merge {
    int nt, nv;
    int tv[HB_MAX_TRIS][3], ta[HB_MAX_TRIS][3]; // local vertices and neighbours
    int vsrc[HB_MAX_TRI_VERTICES];              // distinct point of each local vertex
    double vp[HB_MAX_TRI_VERTICES][3];
    double ts[HB_MAX_TRIS][3]; // twice the vector area
    int group[HB_MAX_TRIS];    // lowest triangle of the group
    double gs[HB_MAX_TRIS][3];
    unsigned char known[HB_MAX_TRIS][HB_MAX_TRIS]; // 0 unknown, 1 mergeable, 2 not
    double cost[HB_MAX_TRIS][HB_MAX_TRIS];
    int out[HB_MAX_TRI_VERTICES], loop[HB_MAX_TRI_VERTICES + 1];
    int drop[1], ndrop; // a point to leave out of the next triangulation
    int vt_start[HB_MAX_TRI_VERTICES + 1], vt[3 * HB_MAX_TRIS]; // the triangles around each vertex
} hb_merge;

// The boundary of the union of groups A and B (B may equal A) as one loop of local vertices in m->loop,
// counter-clockwise; its length, or -1 if the union is not a disc (two loops, or a loop through a vertex
// twice).
static int hb_boundary(hb_merge *m, int A, int B)
{
    int count = 0, first = -1;
    for (int v = 0; v < m->nv; ++v)
        m->out[v] = -1;
    for (int t = 0; t < m->nt; ++t) {
        if (m->group[t] != A && m->group[t] != B)
            continue;
        for (int e = 0; e < 3; ++e) {
            int g = m->group[m->ta[t][e]];
            if (g == A || g == B)
                continue;
            int v = m->tv[t][e];
            if (m->out[v] != -1)
                return -1;
            m->out[v] = m->tv[t][(e + 1) % 3];
            if (first < 0)
                first = v;
            count++;
        }
    }
    if (count == 0 || count > HB_MAX_TRI_VERTICES)
        return -1;
    int v = first, steps = 0;
    do {
        m->loop[steps++] = v;
        v = m->out[v];
    } while (v >= 0 && v != first && steps < count);
    return v == first && steps == count ? count : -1;
}

// Whether groups A and B may merge: their union is a disc, its vertices lie within tol of the plane of
// their summed area, and its boundary turns no more than tol the wrong way. *cost: the half width.
static int hb_mergeable(hb_merge *m, int A, int B, double tol, double *cost)
{
    double n[3];
    for (int k = 0; k < 3; ++k)
        n[k] = m->gs[A][k] + m->gs[B][k];
    double len = sqrt(dot3(n, n));
    // faces turned away from each other never merge: on a thin solid their areas cancel, and the normal of
    // the sum would be any direction (a sliver, of next to no area, merges with anything)
    if (!(len > 0.0) || len < 0.5 * fmax(sqrt(dot3(m->gs[A], m->gs[A])), sqrt(dot3(m->gs[B], m->gs[B]))))
        return 0;
    for (int k = 0; k < 3; ++k)
        n[k] /= len;
    double lo = INFINITY, hi = -INFINITY;
    for (int t = 0; t < m->nt; ++t)
        if (m->group[t] == A || m->group[t] == B)
            for (int e = 0; e < 3; ++e) {
                double s = dot3(n, m->vp[m->tv[t][e]]);
                lo = fmin(lo, s);
                hi = fmax(hi, s);
            }
    *cost = 0.5 * (hi - lo);
    if (*cost > tol)
        return 0;
    int count = hb_boundary(m, A, B);
    if (count < 3)
        return 0;
    for (int k = 0; k < count; ++k) {
        const double *u = m->vp[m->loop[(k + count - 1) % count]], *v = m->vp[m->loop[k]],
                     *w = m->vp[m->loop[(k + 1) % count]];
        double vu[3], wu[3], c[3];
        sub3(v, u, vu);
        sub3(w, u, wu);
        cross3(vu, wu, c);
        double chord = sqrt(dot3(wu, wu));
        if (dot3(c, n) < -tol * chord) // v lies more than tol inside the chord u w: reflex
            return 0;
    }
    return 1;
}

// Whether the groups still make a polyhedron whose vertices all lie within tol of it: at least 4 faces,
// each with at least 3 vertices that stay (on three or more faces); a vertex on only two faces, which is
// dropped, must lie within tol of the straight edge that replaces it. A merge can break that on a thin
// hull (two faces of a flat tetrahedron), or where two nearly parallel faces meet at a shallow angle.
static int hb_structure_ok(const hb_merge *m, double tol)
{
    int kept[HB_MAX_TRIS] = {0}, faces = 0;
    for (int v = 0; v < m->nv; ++v) {
        int around[HB_MAX_TRI_VERTICES], n = 0;
        for (int k = m->vt_start[v]; k < m->vt_start[v + 1]; ++k) {
            int g = m->group[m->vt[k]], j = 0;
            while (j < n && around[j] != g)
                j++;
            if (j == n)
                around[n++] = g;
        }
        if (n >= 3) {
            for (int j = 0; j < n; ++j)
                kept[around[j]]++;
        } else if (n == 2) {
            int ends[2], nends = 0;
            for (int k = m->vt_start[v]; k < m->vt_start[v + 1]; ++k) {
                int t = m->vt[k], e = 0;
                while (m->tv[t][e] != v)
                    e++;
                if (m->group[m->ta[t][e]] == m->group[t])
                    continue; // edge v -> x inside a face
                if (nends == 2)
                    return 0; // the two faces alternate around v: one's boundary passes v twice
                ends[nends++] = m->tv[t][(e + 1) % 3];
            }
            if (nends != 2)
                return 0;
            const double *u = m->vp[ends[0]], *w = m->vp[ends[1]], *p = m->vp[v];
            double pu[3], wu[3], c[3];
            sub3(p, u, pu);
            sub3(w, u, wu);
            cross3(pu, wu, c);
            double len2 = dot3(wu, wu), along = dot3(pu, wu) / len2;
            if (!(dot3(c, c) <= tol * tol * len2) || !(along > 0.0 && along < 1.0))
                return 0;
        }
    }
    for (int t = 0; t < m->nt; ++t)
        if (m->group[t] == t) {
            faces++;
            if (kept[t] < 3)
                return 0;
        }
    return faces >= 4;
}

static void hb_merge_groups(hb_merge *m, double tol)
{
    for (int t = 0; t < m->nt; ++t) {
        m->group[t] = t;
        memcpy(m->gs[t], m->ts[t], sizeof m->gs[t]);
        memset(m->known[t], 0, sizeof m->known[t]);
    }
    for (;;) {
        int bA = -1, bB = -1;
        double best = INFINITY;
        for (int t = 0; t < m->nt; ++t)
            for (int e = 0; e < 3; ++e) {
                int A = m->group[t], B = m->group[m->ta[t][e]];
                if (A >= B)
                    continue;
                if (!m->known[A][B]) {
                    double c = 0.0;
                    m->known[A][B] = hb_mergeable(m, A, B, tol, &c) ? 1 : 2;
                    m->cost[A][B] = c;
                }
                if (m->known[A][B] == 1 && m->cost[A][B] < best) {
                    best = m->cost[A][B];
                    bA = A;
                    bB = B;
                }
            }
        if (bA < 0)
            return;
        int moved[HB_MAX_TRIS], nmoved = 0;
        for (int t = 0; t < m->nt; ++t)
            if (m->group[t] == bB) {
                m->group[t] = bA;
                moved[nmoved++] = t;
            }
        if (!hb_structure_ok(m, tol)) { // undone, and not tried again (later merges only take vertices away)
            for (int k = 0; k < nmoved; ++k)
                m->group[moved[k]] = bB;
            m->known[bA][bB] = 2;
            continue;
        }
        for (int k = 0; k < 3; ++k)
            m->gs[bA][k] += m->gs[bB][k];
        // only pairs involving the merged groups change: a union's boundary depends on its own members
        for (int x = 0; x < m->nt; ++x) {
            m->known[bA][x] = m->known[x][bA] = 0;
            m->known[bB][x] = m->known[x][bB] = 0;
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// The polygon mesh from faces given as vertex loops.

// Newell's normal of a loop (relative to its first vertex): the sum of a fan's triangle areas, so for a
// merged face the normal its merge was judged by.
static void hb_newell(const double (*x)[3], const int *loop, int count, double n[3])
{
    n[0] = n[1] = n[2] = 0.0;
    const double *o = x[loop[0]];
    for (int k = 0; k < count; ++k) {
        double a[3], b[3];
        sub3(x[loop[k]], o, a);
        sub3(x[loop[(k + 1) % count]], o, b);
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    double len = sqrt(dot3(n, n));
    for (int i = 0; i < 3; ++i)
        n[i] = len > 0.0 ? n[i] / len : 0.0;
}

// d through the outermost vertex: no vertex is in front of its own face (the others are behind within the
// merge tolerance).
static double hb_offset(const double (*x)[3], const int *loop, int count, const double n[3])
{
    double d = -INFINITY;
    for (int k = 0; k < count; ++k)
        d = fmax(d, dot3(n, x[loop[k]]));
    return d;
}

// Fills the half-edge mesh from `nf` face loops over vertices `x` (float values in double): loops are
// concatenated in `loops`, face f has `sizes[f]` vertices and the unit normal normals[f]. Returns 0 if the
// loops do not close into a polyhedron that fits the mesh's arrays.
static int hb_fill_mesh(rb_hull_mesh *out, const double (*x)[3], int nv, const int *loops, const int *sizes, int nf,
                        const double (*normals)[3])
{
    // half-edge a -> b, -1 before its edge is numbered; the first side of an edge seen is 2k, its twin 2k + 1
    int pair[RB_HULL_MAX_VERTICES][RB_HULL_MAX_VERTICES];
    unsigned char seen[RB_HULL_MAX_VERTICES][RB_HULL_MAX_VERTICES];
    if (nv < 4 || nv > RB_HULL_MAX_VERTICES || nf < 4 || nf > RB_HULL_MAX_FACES)
        return 0;
    for (int a = 0; a < nv; ++a)
        for (int b = 0; b < nv; ++b) {
            pair[a][b] = -1;
            seen[a][b] = 0;
        }
    int h = 0, at = 0;
    for (int f = 0; f < nf; ++f) {
        if (sizes[f] < 3)
            return 0;
        for (int k = 0; k < sizes[f]; ++k) {
            int a = loops[at + k], b = loops[at + (k + 1) % sizes[f]];
            if (a == b || seen[a][b])
                return 0; // the same directed edge on two faces: not a closed 2-manifold
            seen[a][b] = 1;
            if (pair[a][b] < 0) {
                if (h + 2 > RB_HULL_MAX_HALF_EDGES)
                    return 0;
                pair[a][b] = h;
                pair[b][a] = h + 1;
                h += 2;
            }
        }
        at += sizes[f];
    }
    for (int a = 0; a < nv; ++a) // every edge seen from both sides: the surface is closed
        for (int b = 0; b < nv; ++b)
            if (pair[a][b] >= 0 && !seen[a][b])
                return 0;
    out->vertex_count = nv;
    out->face_count = nf;
    out->half_edge_count = h;
    for (int v = 0; v < nv; ++v) {
        out->vertex[v] = rb_f3((float)x[v][0], (float)x[v][1], (float)x[v][2]);
        out->vertex_edge[v] = -1;
    }
    at = 0;
    for (int f = 0; f < nf; ++f) {
        int s = sizes[f];
        for (int k = 0; k < s; ++k) {
            int a = loops[at + k], b = loops[at + (k + 1) % s], c = loops[at + (k + 2) % s];
            int e = pair[a][b];
            out->edge_origin[e] = a;
            out->edge_twin[e] = e ^ 1;
            out->edge_next[e] = pair[b][c];
            out->edge_face[e] = f;
            if (out->vertex_edge[a] < 0 || e < out->vertex_edge[a])
                out->vertex_edge[a] = e;
        }
        out->face_edge[f] = pair[loops[at]][loops[at + 1]];
        out->face_edge_count[f] = s;
        const double *n = normals[f];
        double d = hb_offset(x, loops + at, s, n);
        out->plane[f] = rb_f4((float)n[0], (float)n[1], (float)n[2], (float)d);
        at += s;
    }
    for (int v = 0; v < nv; ++v)
        if (out->vertex_edge[v] < 0)
            return 0;
    return 1;
}

// Whether the mesh is a convex polyhedron within `tol`: Euler's formula, every vertex on at least three
// faces, faces strictly convex and within tol of their planes, every vertex within tol behind every plane.
static int hb_check(const rb_hull_mesh *m, const double (*x)[3], double tol)
{
    int V = m->vertex_count, F = m->face_count, H = m->half_edge_count;
    if (V - H / 2 + F != 2)
        return 0;
    int degree[RB_HULL_MAX_VERTICES] = {0};
    for (int e = 0; e < H; ++e)
        degree[m->edge_origin[e]]++;
    for (int v = 0; v < V; ++v)
        if (degree[v] < 3)
            return 0;
    for (int f = 0; f < F; ++f) {
        double n[3] = {m->plane[f].x, m->plane[f].y, m->plane[f].z}, d = m->plane[f].w;
        for (int v = 0; v < V; ++v)
            if (dot3(n, x[v]) - d > tol)
                return 0;
        int e = m->face_edge[f];
        for (int k = 0; k < m->face_edge_count[f]; ++k) {
            int e1 = m->edge_next[e], e2 = m->edge_next[e1];
            const double *u = x[m->edge_origin[e]], *v = x[m->edge_origin[e1]], *w = x[m->edge_origin[e2]];
            if (fabs(dot3(n, v) - d) > tol)
                return 0;
            double vu[3], wv[3], c[3];
            sub3(v, u, vu);
            sub3(w, v, wv);
            cross3(vu, wv, c);
            if (!(dot3(c, n) > 0.0))
                return 0;
            e = e1;
        }
    }
    return 1;
}

// ---------------------------------------------------------------------------------------------------------
// Welding.

typedef struct hb_grid {
    uint64_t *key;
    int *head; // first kept point of the cell, -1: empty slot
    int *link; // next kept point of the same cell
    unsigned bits;
} hb_grid;

static uint64_t hb_hash(uint64_t key, unsigned bits) { return (key * 0x9E3779B97F4A7C15ull) >> (64 - bits); }

// The slot of the cell `key`: its own, or the empty one where it would go.
static size_t hb_slot(const hb_grid *g, uint64_t key)
{
    size_t mask = ((size_t)1 << g->bits) - 1, s = (size_t)hb_hash(key, g->bits);
    while (g->head[s] != -1 && g->key[s] != key)
        s = (s + 1) & mask;
    return s;
}

// A coordinate's cell, clamped so that a cell and its neighbours fit in HB_CELL_BITS.
static int64_t hb_cell(double x, double lo, double cell)
{
    double c = floor((x - lo) / cell);
    const double top = (double)(((int64_t)1 << HB_CELL_BITS) - 2);
    return (int64_t)(c < 0.0 ? 0.0 : (c > top ? top : c));
}

static uint64_t hb_key(const int64_t c[3])
{
    return (uint64_t)c[0] | (uint64_t)c[1] << HB_CELL_BITS | (uint64_t)c[2] << (2 * HB_CELL_BITS);
}

// ---------------------------------------------------------------------------------------------------------

// The extreme tetrahedron: the lowest and highest points along the box's longest axis (ties broken
// lexicographically, so they are corners), the point farthest from their line, the point farthest from
// the plane of the three. Returns 0 with the reason when the cloud is too thin.
static int hb_tetrahedron(const hb_hull *h, int ids[4], char *why, size_t why_size)
{
    const int *cand = h->cand, nc = h->ncand;
    int axis = 0;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int j = 0; j < nc; ++j)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], h->p[cand[j]][k]);
            hi[k] = fmax(hi[k], h->p[cand[j]][k]);
        }
    for (int k = 1; k < 3; ++k)
        if (hi[k] - lo[k] > hi[axis] - lo[axis])
            axis = k;
    int a = cand[0], b = cand[0];
    for (int j = 1; j < nc; ++j) {
        int i = cand[j], less = 0, more = 0;
        for (int k = 0; k < 3 && !less && !more; ++k) {
            double pi = h->p[i][(axis + k) % 3], pa = h->p[a][(axis + k) % 3];
            less = pi < pa;
            more = pi > pa;
        }
        if (less)
            a = i;
        less = more = 0;
        for (int k = 0; k < 3 && !less && !more; ++k) {
            double pi = h->p[i][(axis + k) % 3], pb = h->p[b][(axis + k) % 3];
            less = pi < pb;
            more = pi > pb;
        }
        if (more)
            b = i;
    }
    double dir[3], mid[3];
    sub3(h->p[b], h->p[a], dir);
    double len = sqrt(dot3(dir, dir));
    for (int k = 0; k < 3; ++k) {
        dir[k] /= len;
        mid[k] = 0.5 * (h->p[a][k] + h->p[b][k]);
    }
    // farthest from the line; ties to the farthest from the segment's middle (a corner of the tied edge)
    int c = -1;
    double best = -1.0, best_mid = -1.0;
    for (int j = 0; j < nc; ++j) {
        int i = cand[j];
        double r[3], x[3];
        sub3(h->p[i], h->p[a], r);
        cross3(r, dir, x);
        double d = dot3(x, x), dm = dist_sq3(h->p[i], mid);
        if (d > best || (d == best && dm > best_mid)) {
            best = d;
            best_mid = dm;
            c = i;
        }
    }
    if (sqrt(best) <= h->tol) {
        hb_fail(why, why_size, "all %d distinct points lie on one line (within %g)", nc, h->tol);
        return 0;
    }
    double n[3], ab[3], ac[3], cen[3];
    sub3(h->p[b], h->p[a], ab);
    sub3(h->p[c], h->p[a], ac);
    cross3(ab, ac, n);
    double nl = sqrt(dot3(n, n));
    for (int k = 0; k < 3; ++k) {
        n[k] /= nl;
        cen[k] = (h->p[a][k] + h->p[b][k] + h->p[c][k]) / 3.0;
    }
    // farthest from their plane; ties to the farthest from the triangle's centroid. The cloud is flat if
    // it lies within tol of a plane parallel to the triangle's: what the merge would make one face.
    int d = -1;
    double above = 0.0, below = 0.0;
    best = -1.0;
    best_mid = -1.0;
    for (int j = 0; j < nc; ++j) {
        int i = cand[j];
        double r[3];
        sub3(h->p[i], h->p[a], r);
        double sd = dot3(r, n), s = fabs(sd), dm = dist_sq3(h->p[i], cen);
        above = fmax(above, sd);
        below = fmin(below, sd);
        if (s > best || (s == best && dm > best_mid)) {
            best = s;
            best_mid = dm;
            d = i;
        }
    }
    if (above - below <= 2.0 * h->tol) {
        hb_fail(why, why_size, "all %d distinct points lie in one plane (within %g)", nc, h->tol);
        return 0;
    }
    int64_t u[3], w[3], r[3], qn[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = (int64_t)h->q[b][k] - h->q[a][k];
        w[k] = (int64_t)h->q[c][k] - h->q[a][k];
        r[k] = (int64_t)h->q[d][k] - h->q[a][k];
    }
    qn[0] = u[1] * w[2] - u[2] * w[1];
    qn[1] = u[2] * w[0] - u[0] * w[2];
    qn[2] = u[0] * w[1] - u[1] * w[0];
    int s = exact_dot_sign(r, qn);
    if (s == 0) { // cannot happen: d is more than tol off the plane, far more than the snapping
        hb_fail(why, why_size, "all %d distinct points lie in one plane (within %g)", nc, h->tol);
        return 0;
    }
    ids[0] = a;
    ids[1] = s < 0 ? b : c; // d behind a, ids[1], ids[2]
    ids[2] = s < 0 ? c : b;
    ids[3] = d;
    return 1;
}

// Steps 3 and 4: the polygon mesh of the hull's triangles, merged at tolerance tol, into *out. Returns
//   1: done;
//   2: more than max_vertices vertices remain (only when the triangulation has more);
//  -1: a vertex, m->drop[0], lies within tol / 4 outside the chord between its neighbours on some face, or
//      inside it (nearly flat, or a little reflex): three or more faces meet there, so merging cannot
//      remove it, and the face would not be strictly convex;
//   0: the mesh fails the check.
static int hb_polygons(const hb_hull *h, hb_merge *m, const rb_float3 *points, double tol, int max_vertices,
                       rb_hull_mesh *out)
{
    hb_merge_groups(m, tol);
    // vertices on three or more faces stay (the first two faces met, then a flag for a third)
    int face_a[HB_MAX_TRI_VERTICES], face_b[HB_MAX_TRI_VERTICES], many[HB_MAX_TRI_VERTICES];
    for (int v = 0; v < m->nv; ++v) {
        face_a[v] = face_b[v] = -1;
        many[v] = 0;
    }
    for (int t = 0; t < m->nt; ++t)
        for (int e = 0; e < 3; ++e) {
            int v = m->tv[t][e], g = m->group[t];
            if (face_a[v] < 0 || face_a[v] == g)
                face_a[v] = g;
            else if (face_b[v] < 0 || face_b[v] == g)
                face_b[v] = g;
            else
                many[v] = 1;
        }
    int nv = 0, index[HB_MAX_TRI_VERTICES], local[RB_HULL_MAX_VERTICES];
    double x[RB_HULL_MAX_VERTICES][3];
    for (int v = 0; v < m->nv; ++v)
        nv += many[v];
    if (nv > max_vertices)
        return 2;
    nv = 0;
    for (int v = 0; v < m->nv; ++v) {
        index[v] = many[v] ? nv++ : -1;
        if (index[v] >= 0) {
            local[index[v]] = v;
            rb_float3 pt = points[h->src[m->vsrc[v]]];
            x[index[v]][0] = pt.x;
            x[index[v]][1] = pt.y;
            x[index[v]][2] = pt.z;
        }
    }
    int loops[RB_HULL_MAX_HALF_EDGES], sizes[RB_HULL_MAX_FACES], nf = 0, at = 0;
    double normals[RB_HULL_MAX_FACES][3];
    for (int t = 0; t < m->nt; ++t) {
        if (m->group[t] != t)
            continue;
        int count = hb_boundary(m, t, t);
        if (count < 3 || nf >= RB_HULL_MAX_FACES)
            return 0;
        int start = -1; // the kept vertex of lowest index first
        for (int k = 0; k < count; ++k)
            if (index[m->loop[k]] >= 0 && (start < 0 || index[m->loop[k]] < index[m->loop[start]]))
                start = k;
        if (start < 0)
            return 0;
        int s = 0;
        for (int k = 0; k < count; ++k) {
            int v = index[m->loop[(start + k) % count]];
            if (v >= 0) {
                if (at + s >= RB_HULL_MAX_HALF_EDGES)
                    return 0;
                loops[at + s++] = v;
            }
        }
        // the normal of the whole merged face, dropped vertices included: the one its merges were judged by
        hb_newell((const double(*)[3])m->vp, m->loop, count, normals[nf]);
        sizes[nf++] = s;
        at += s;
    }
    // The flattest such vertex only: two of them side by side (a corner given as two points a little more
    // than tol apart) are each within tol of the chord through the other, but not both can go. A vertex
    // between its neighbours first; failing that, a reflex one beyond the end of its chord (where points
    // crowd into a corner), but never a triangle's: a sliver's tip, beyond the end of its chord, is a corner.
    double flattest = INFINITY;
    int beyond = 0;
    m->ndrop = 0;
    at = 0;
    for (int f = 0; f < nf; ++f) {
        const double *n = normals[f];
        for (int k = 0; k < sizes[f]; ++k) {
            int u = loops[at + (k + sizes[f] - 1) % sizes[f]], v = loops[at + k], w = loops[at + (k + 1) % sizes[f]];
            double vu[3], wu[3], c[3];
            sub3(x[v], x[u], vu);
            sub3(x[w], x[u], wu);
            cross3(vu, wu, c);
            double bulge = dot3(c, n) / sqrt(dot3(wu, wu)); // v's distance outside the chord u w
            double along = dot3(vu, wu) / dot3(wu, wu);     // and where along it
            int between = along > 0.0 && along < 1.0;
            if (!(bulge <= 0.25 * tol && between) && !(bulge < 0.0 && sizes[f] > 3))
                continue;
            if ((between && (beyond || bulge < flattest)) || (!between && beyond && bulge < flattest) ||
                m->ndrop == 0) {
                flattest = bulge;
                beyond = !between;
                m->drop[0] = m->vsrc[local[v]];
                m->ndrop = 1;
            }
        }
        at += sizes[f];
    }
    if (m->ndrop > 0)
        return -m->ndrop;
    if (!hb_fill_mesh(out, (const double(*)[3])x, nv, loops, sizes, nf, (const double(*)[3])normals))
        return 0;
    // the check allows for the planes' rounding to float too
    return hb_check(out, (const double(*)[3])x, 2.0 * tol + 4.0 * FLT_EPSILON * rb_hull_mesh_radius(out));
}

// Puts back the points more than tol above some triangle; whether there were any. A point is dropped when
// it is within tol of the planes it was tested against, but near a sharp edge of the hull under
// construction (a thin first tetrahedron has some) that can be true of a point far outside.
static int hb_rescue(hb_hull *h)
{
    int live[HB_TRI_POOL], nlive = 0, found = 0;
    for (int t = 0; t < h->tri_top; ++t)
        if (h->tri[t].live)
            live[nlive++] = t;
    for (int k = 0; k < h->ncand; ++k) {
        int i = h->cand[k], best = -1;
        double best_d = h->tol;
        for (int j = 0; j < nlive; ++j) {
            double d = hb_dist(h, live[j], i);
            if (d > best_d) {
                best_d = d;
                best = live[j];
            }
        }
        if (best >= 0) {
            hb_assign(h, best, i, best_d);
            found = 1;
        }
    }
    return found;
}

// Step 2, continued: adds points until the triangulation has `cap` vertices or no point is more than tol
// outside. Returns 1 if points are left outside, 0 if none, -1 if the triangle pool overflowed (it cannot:
// at most HB_MAX_TRI_VERTICES vertices).
static int hb_grow(hb_hull *h, int cap)
{
    // every point is added at most once and each rescue leads to an addition, so this ends; the bound on
    // steps is a guard
    for (int step = 0; step <= 2 * h->ncand + 2; ++step) {
        int t0 = -1;
        for (int t = 0; t < h->tri_top; ++t)
            if (h->tri[t].live && h->tri[t].best >= 0 && h->tri[t].best_dist > h->tol &&
                (t0 < 0 || h->tri[t].best_dist > h->tri[t0].best_dist))
                t0 = t;
        if (t0 < 0 && h->rescues < HB_MAX_RESCUES && hb_rescue(h)) {
            h->rescues++;
            continue;
        }
        if (t0 < 0)
            return 0;
        if (h->vertex_count >= cap)
            return 1;
        if (!hb_add(h, t0, hb_pick(h, t0)))
            return -1;
    }
    return 0;
}

// Step 2 from the start, over the distinct points not excluded: the extreme tetrahedron, grown to `cap`.
static int hb_triangulate(hb_hull *h, const unsigned char *excluded, int cap, int *left_outside, char *why,
                          size_t why_size)
{
    h->ncand = 0;
    for (int i = 0; i < h->n; ++i)
        if (!excluded[i])
            h->cand[h->ncand++] = i;
    h->tri_top = 0;
    h->free_count = 0;
    h->rescues = 0;
    int ids[4];
    if (h->ncand < 4) { // the points left out for lying within tol of their neighbours' chords
        hb_fail(why, why_size, "all %d distinct points lie in one plane (within %g)", h->n, h->tol);
        return 0;
    }
    if (!hb_tetrahedron(h, ids, why, why_size))
        return 0;
    hb_start(h, ids[0], ids[1], ids[2], ids[3]);
    *left_outside = hb_grow(h, cap);
    if (*left_outside < 0) {
        hb_fail(why, why_size, "the hull's triangulation overflowed (internal error)");
        return 0;
    }
    return 1;
}

// The triangulation as the merge step takes it: local vertices in the order of the distinct points (the
// input order). The counts cannot pass the arrays' sizes (V <= HB_MAX_TRI_VERTICES, 2V - 4 triangles);
// checked all the same.
static int hb_load(hb_hull *h, hb_merge *m)
{
    int local_of[HB_MAX_TRI_VERTICES], tri_of[HB_TRI_POOL], live = 0;
    m->nv = 0;
    h->stamp_now++;
    for (int t = 0; t < h->tri_top; ++t)
        if (h->tri[t].live) {
            live++;
            for (int e = 0; e < 3; ++e) {
                int v = h->tri[t].v[e];
                if (h->stamp[v] != h->stamp_now) {
                    if (m->nv >= HB_MAX_TRI_VERTICES)
                        return 0;
                    h->stamp[v] = h->stamp_now;
                    local_of[m->nv++] = v;
                }
            }
        }
    if (live > HB_MAX_TRIS)
        return 0;
    for (int i = 1; i < m->nv; ++i) // insertion sort: at most 128
        for (int j = i; j > 0 && local_of[j - 1] > local_of[j]; --j) {
            int s = local_of[j];
            local_of[j] = local_of[j - 1];
            local_of[j - 1] = s;
        }
    for (int v = 0; v < m->nv; ++v) {
        m->vsrc[v] = local_of[v];
        memcpy(m->vp[v], h->p[local_of[v]], sizeof m->vp[v]);
        h->fan[local_of[v]] = v; // borrowed as the point -> local vertex map
    }
    m->nt = 0;
    for (int t = 0; t < h->tri_top; ++t)
        tri_of[t] = h->tri[t].live ? m->nt++ : -1;
    for (int t = 0; t < h->tri_top; ++t) {
        int i = tri_of[t];
        if (i < 0)
            continue;
        for (int e = 0; e < 3; ++e) {
            m->tv[i][e] = h->fan[h->tri[t].v[e]];
            m->ta[i][e] = tri_of[h->tri[t].adj[e]];
        }
        double ab[3], ac[3];
        sub3(m->vp[m->tv[i][1]], m->vp[m->tv[i][0]], ab);
        sub3(m->vp[m->tv[i][2]], m->vp[m->tv[i][0]], ac);
        cross3(ab, ac, m->ts[i]);
    }
    for (int v = 0; v < m->nv; ++v)
        h->fan[local_of[v]] = -1;
    for (int v = 0; v <= m->nv; ++v)
        m->vt_start[v] = 0;
    for (int t = 0; t < m->nt; ++t)
        for (int e = 0; e < 3; ++e)
            m->vt_start[m->tv[t][e] + 1]++;
    for (int v = 0; v < m->nv; ++v)
        m->vt_start[v + 1] += m->vt_start[v];
    int fill[HB_MAX_TRI_VERTICES];
    memcpy(fill, m->vt_start, sizeof(int) * (size_t)m->nv);
    for (int t = 0; t < m->nt; ++t)
        for (int e = 0; e < 3; ++e)
            m->vt[fill[m->tv[t][e]]++] = t;
    return 1;
}

// Steps 2 to 4. The cap counts the vertices of the merged mesh: when merging leaves fewer than
// max_vertices and points are still outside, the triangulation grows by the difference and is merged
// again, as long as the merged mesh keeps at most max_vertices (the last mesh that did is the result).
// A vertex flagged by hb_polygons is left out of the cloud and the triangulation starts again.
static int hb_build(hb_hull *h, int max_vertices, const rb_float3 *points, rb_hull_mesh *out, char *why,
                    size_t why_size)
{
    hb_merge *m = malloc(sizeof *m);
    rb_hull_mesh *trial = malloc(sizeof *trial);
    unsigned char *excluded = calloc((size_t)h->n, 1);
    int found = 0, left_outside = 0, cap = max_vertices;
    if (!m || !trial || !excluded) {
        hb_fail(why, why_size, "out of memory building the hull of %d distinct points", h->n);
        goto done;
    }
    if (!hb_triangulate(h, excluded, cap, &left_outside, why, why_size))
        goto done;
    // each round leaves a point out, doubles the tolerance, or grows the triangulation (at most
    // HB_MAX_TRI_VERTICES times): a bounded number of rounds
    double tol = h->tol;
    for (int drops = 0, doublings = 0;;) {
        int result = hb_load(h, m) ? hb_polygons(h, m, points, tol, max_vertices, trial) : 0;
        if (result < 0) {
            if (++drops > HB_MAX_DROPS)
                break;
            for (int j = 0; j < m->ndrop; ++j)
                excluded[m->drop[j]] = 1;
            cap = max_vertices;
            found = 0;
            if (!hb_triangulate(h, excluded, cap, &left_outside, why, why_size))
                goto done;
            continue;
        }
        if (result == 0) {
            if (++doublings > HB_MERGE_TRIES)
                break;
            tol *= 2.0;
            continue;
        }
        if (result == 2)
            break;
        *out = *trial;
        found = 1;
        if (!left_outside || out->vertex_count >= max_vertices || cap >= HB_MAX_TRI_VERTICES)
            break;
        cap = cap + max_vertices - out->vertex_count;
        if (cap > HB_MAX_TRI_VERTICES)
            cap = HB_MAX_TRI_VERTICES;
        left_outside = hb_grow(h, cap);
        if (left_outside < 0)
            break;
    }
    if (!found)
        hb_fail(why, why_size, "no valid polygon mesh came out of the hull's %d vertices (internal error)",
                h->vertex_count);
done:
    free(m);
    free(trial);
    free(excluded);
    return found;
}

int rb_hull_build(const rb_float3 *points, int count, float weld, int max_vertices, rb_hull_mesh *out, char *why,
                  size_t why_size)
{
    if (why && why_size > 0)
        why[0] = '\0';
    if (!points || !out) {
        hb_fail(why, why_size, "no points (%p) or no mesh to fill (%p)", (const void *)points, (void *)out);
        return 0;
    }
    if (count < 4) {
        hb_fail(why, why_size, "a hull needs at least 4 points, got %d", count);
        return 0;
    }
    if (!(weld >= 0.0f) || !isfinite(weld)) {
        hb_fail(why, why_size, "the weld distance must be finite and >= 0, got %g", weld);
        return 0;
    }
    if (max_vertices < 4 || max_vertices > RB_HULL_MAX_VERTICES) {
        hb_fail(why, why_size, "max_vertices must be in 4 .. %d, got %d", RB_HULL_MAX_VERTICES, max_vertices);
        return 0;
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, maxabs = 0.0;
    for (int i = 0; i < count; ++i) {
        double x[3] = {points[i].x, points[i].y, points[i].z};
        if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2])) {
            hb_fail(why, why_size, "point %d is not finite: (%g, %g, %g)", i, x[0], x[1], x[2]);
            return 0;
        }
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], x[k]);
            hi[k] = fmax(hi[k], x[k]);
            maxabs = fmax(maxabs, fabs(x[k]));
        }
    }
    double size[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    double extent = sqrt(dot3(size, size));
    double tol = fmax(fmin((double)weld, 0.01 * extent), fmax(1e-6 * extent, 2.0 * FLT_EPSILON * maxabs));
    if (extent <= tol) {
        hb_fail(why, why_size, "all %d points lie within %g of one point", count, tol);
        return 0;
    }

    hb_hull *h = calloc(1, sizeof *h);
    unsigned bits = 4;
    while (((size_t)1 << bits) < 2 * (size_t)count)
        bits++;
    hb_grid g = {malloc(sizeof(uint64_t) << bits), malloc(sizeof(int) << bits), malloc(sizeof(int) * (size_t)count),
                 bits};
    if (h) {
        h->p = malloc(sizeof *h->p * (size_t)count);
        h->q = malloc(sizeof *h->q * (size_t)count);
        h->src = malloc(sizeof(int) * (size_t)count);
        h->next = malloc(sizeof(int) * (size_t)count);
        h->fan = malloc(sizeof(int) * (size_t)count);
        h->stamp = calloc((size_t)count, sizeof(int));
        h->pending = malloc(sizeof(int) * (size_t)count);
        h->cand = malloc(sizeof(int) * (size_t)count);
    }
    int ok = 0;
    if (!h || !g.key || !g.head || !g.link || !h->p || !h->q || !h->src || !h->next || !h->fan || !h->stamp ||
        !h->pending || !h->cand) {
        hb_fail(why, why_size, "out of memory building the hull of %d points", count);
        goto done;
    }
    h->tol = tol;
    double centre[3], half = 0.0;
    for (int k = 0; k < 3; ++k) {
        centre[k] = 0.5 * (lo[k] + hi[k]);
        half = fmax(half, 0.5 * size[k]);
    }
    // snapping grid: a power of two with |snapped| <= 2^28 + 1, the centre on the grid
    int e2;
    frexp(half, &e2);
    double step = ldexp(1.0, e2 - HB_SNAP_BITS);
    h->step = step;
    for (int k = 0; k < 3; ++k)
        centre[k] = round(centre[k] / step) * step;

    // weld: each point against the points kept before it in its cell and the 26 around (cells are tol wide)
    memset(g.head, -1, sizeof(int) << bits);
    h->n = 0;
    const double cell = tol, tol_sq = tol * tol;
    for (int i = 0; i < count; ++i) {
        double x[3] = {points[i].x, points[i].y, points[i].z}, pc[3];
        int64_t c[3];
        for (int k = 0; k < 3; ++k) {
            pc[k] = x[k] - centre[k];
            c[k] = hb_cell(x[k], lo[k], cell);
        }
        int welded = 0;
        for (int dz = -1; dz <= 1 && !welded; ++dz)
            for (int dy = -1; dy <= 1 && !welded; ++dy)
                for (int dx = -1; dx <= 1 && !welded; ++dx) {
                    int64_t nc[3] = {c[0] + dx, c[1] + dy, c[2] + dz};
                    if (nc[0] < 0 || nc[1] < 0 || nc[2] < 0)
                        continue;
                    size_t s = hb_slot(&g, hb_key(nc));
                    for (int j = g.head[s]; j != -1 && !welded; j = g.link[j])
                        welded = dist_sq3(h->p[j], pc) < tol_sq;
                }
        if (welded)
            continue;
        int j = h->n++;
        memcpy(h->p[j], pc, sizeof pc);
        for (int k = 0; k < 3; ++k)
            h->q[j][k] = (int32_t)llround(pc[k] / step);
        h->src[j] = i;
        h->fan[j] = -1;
        size_t s = hb_slot(&g, hb_key(c));
        if (g.head[s] == -1)
            g.key[s] = hb_key(c);
        g.link[j] = g.head[s];
        g.head[s] = j;
    }
    if (h->n == 1) {
        hb_fail(why, why_size, "all %d points lie within %g of one point", count, tol);
        goto done;
    }
    if (h->n < 4) {
        hb_fail(why, why_size, "only %d distinct points after welding within %g; a hull needs at least 4", h->n,
                tol);
        goto done;
    }
    ok = hb_build(h, max_vertices, points, out, why, why_size);
done:
    if (h) {
        free(h->p);
        free(h->q);
        free(h->src);
        free(h->next);
        free(h->fan);
        free(h->stamp);
        free(h->pending);
        free(h->cand);
    }
    free(h);
    free(g.key);
    free(g.head);
    free(g.link);
    return ok;
}

void rb_hull_unit_cube(rb_hull_mesh *out)
{
    // vertex i = (bit 0 ? 1 : -1, bit 1 ? 1 : -1, bit 2 ? 1 : -1); faces -x, +x, -y, +y, -z, +z, each
    // counter-clockwise seen from outside
    static const int loops[24] = {0, 4, 6, 2, 1, 3, 7, 5, 0, 1, 5, 4, 2, 6, 7, 3, 0, 2, 3, 1, 4, 5, 7, 6};
    static const int sizes[6] = {4, 4, 4, 4, 4, 4};
    double x[8][3];
    for (int i = 0; i < 8; ++i)
        for (int k = 0; k < 3; ++k)
            x[i][k] = (i >> k) & 1 ? 1.0 : -1.0;
    double normals[6][3];
    for (int f = 0; f < 6; ++f)
        hb_newell((const double(*)[3])x, loops + 4 * f, 4, normals[f]);
    hb_fill_mesh(out, (const double(*)[3])x, 8, loops, sizes, 6, (const double(*)[3])normals);
}

void rb_hull_mass_properties(const rb_hull_mesh *m, rb_hull_mass *out)
{
    // tetrahedra from a reference point r (the vertices' mean, for precision) to each face's fan triangles:
    // with a, b, c relative to r and D = a . (b x c), the tetrahedron's volume is D / 6, its first moment
    // D / 24 (a + b + c), and its second moments integral(x_i x_j) = D / 120 (sum_k v_ki v_kj + s_i s_j)
    // with s = a + b + c
    double r[3] = {0.0, 0.0, 0.0};
    for (int v = 0; v < m->vertex_count; ++v) {
        r[0] += m->vertex[v].x;
        r[1] += m->vertex[v].y;
        r[2] += m->vertex[v].z;
    }
    for (int k = 0; k < 3; ++k)
        r[k] /= m->vertex_count > 0 ? m->vertex_count : 1;
    double vol = 0.0, first[3] = {0.0, 0.0, 0.0}, second[3][3] = {{0.0}};
    for (int f = 0; f < m->face_count; ++f) {
        int e0 = m->face_edge[f], e = m->edge_next[e0];
        rb_float3 p0 = m->vertex[m->edge_origin[e0]];
        double a[3] = {p0.x - r[0], p0.y - r[1], p0.z - r[2]};
        for (int k = 2; k < m->face_edge_count[f]; ++k) {
            int e1 = m->edge_next[e];
            rb_float3 p1 = m->vertex[m->edge_origin[e]], p2 = m->vertex[m->edge_origin[e1]];
            double b[3] = {p1.x - r[0], p1.y - r[1], p1.z - r[2]}, c[3] = {p2.x - r[0], p2.y - r[1], p2.z - r[2]};
            double bc[3];
            cross3(b, c, bc);
            double D = dot3(a, bc);
            vol += D / 6.0;
            for (int i = 0; i < 3; ++i) {
                double s_i = a[i] + b[i] + c[i];
                first[i] += D / 24.0 * s_i;
                for (int j = 0; j < 3; ++j)
                    second[i][j] += D / 120.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s_i * (a[j] + b[j] + c[j]));
            }
            e = e1;
        }
    }
    out->volume = vol;
    double cen[3] = {0.0, 0.0, 0.0};
    if (vol != 0.0)
        for (int i = 0; i < 3; ++i)
            cen[i] = first[i] / vol;
    // second moments about the centroid, per unit volume
    double cov[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            cov[i][j] = vol != 0.0 ? second[i][j] / vol - cen[i] * cen[j] : 0.0;
    for (int i = 0; i < 3; ++i)
        out->centroid[i] = r[i] + cen[i];
    out->inertia[0] = cov[1][1] + cov[2][2];
    out->inertia[1] = cov[0][0] + cov[2][2];
    out->inertia[2] = cov[0][0] + cov[1][1];
    out->inertia[3] = -cov[0][1];
    out->inertia[4] = -cov[0][2];
    out->inertia[5] = -cov[1][2];
}

int rb_hull_record_size(const rb_hull_mesh *m)
{
    return RB_HULL_HEADER + m->vertex_count + 2 * m->face_count + m->half_edge_count;
}

void rb_hull_write_record(const rb_hull_mesh *m, rb_float4 *rec)
{
    int V = m->vertex_count, F = m->face_count, H = m->half_edge_count;
    rec[0] = rb_f4((float)V, (float)F, (float)H, 0.0f);
    rec[1] = rb_f4(0.0f, 0.0f, 0.0f, rb_hull_mesh_radius(m));
    rb_float4 *vert = rec + RB_HULL_HEADER, *plane = vert + V, *face = plane + F, *edge = face + F;
    for (int v = 0; v < V; ++v)
        vert[v] = rb_f4_from3(m->vertex[v], (float)m->vertex_edge[v]);
    for (int f = 0; f < F; ++f) {
        plane[f] = m->plane[f];
        face[f] = rb_f4((float)m->face_edge[f], (float)m->face_edge_count[f], 0.0f, 0.0f);
    }
    for (int e = 0; e < H; ++e)
        edge[e] = rb_f4((float)m->edge_origin[e], (float)m->edge_twin[e], (float)m->edge_next[e],
                        (float)m->edge_face[e]);
}

float rb_hull_mesh_radius(const rb_hull_mesh *m)
{
    double r = 0.0;
    for (int v = 0; v < m->vertex_count; ++v) {
        double x = m->vertex[v].x, y = m->vertex[v].y, z = m->vertex[v].z;
        r = fmax(r, sqrt(x * x + y * y + z * z));
    }
    float f = (float)r;
    if ((double)f < r) // rounded down: the bound must hold
        f = nextafterf(f, INFINITY);
    return f;
}
