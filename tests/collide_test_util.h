// Helpers shared by the narrow-phase tests (tests/test_collide_*.c), next to the kernel header under
// test. Everything here is `static inline`: a test compiles in only what it uses, without warnings.
//
// - Shapes: sphere_at, capsule_at, box_at, plane_of, and rotations rot (degrees), turn (radians),
//   rotation_between.
// - Assertions on manifolds: assert_vec_equal, assert_normal, point_with_id, find_point,
//   assert_ids_unique, sorted_ids, assert_same_ids; collide_from_garbage runs a kernel on a
//   manifold full of garbage, to check it sets everything it reports.
// - Seeded randomness (one LCG, rng_state; a test sets the seed): frand, random_vec,
//   random_rotation, random_rotation_often_aligned (identity and quarter turns mixed in), and
//   rigid motions: random_motion, moved, nudged (a tiny one), assert_manifold_moved,
//   assert_contact_moves_rigidly.
// - Reference geometry in double, independent of the collision kernels: dvec and its operations;
//   sdf (signed distance to a sphere, capsule, box or plane), support, gap_along,
//   brute_signed_distance (sphere or capsule against a finite shape), brute_plane_distance (sampled
//   surface against a plane), point_box_distance (0 inside), and check_manifold, the invariants
//   every manifold must keep.
#ifndef RUBBLE_TESTS_COLLIDE_TEST_UTIL_H
#define RUBBLE_TESTS_COLLIDE_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/manifold.h"
#include "kernels/shape_geom.h"

// ---- shapes ----------------------------------------------------------------------------------------

static inline rb_geom sphere_at(rb_float3 c, float r)
{
    return rb_geom_make(RB_GEOM_SPHERE, rb_xform_make(c, rb_quat_identity()), rb_f4(r, 0.0f, 0.0f, 0.0f));
}

// Capsule centred at c, its axis local y, from c - half_length y to c + half_length y.
static inline rb_geom capsule_at(rb_float3 c, rb_float4 q, float half_length, float r)
{
    return rb_geom_make(RB_GEOM_CAPSULE, rb_xform_make(c, q), rb_f4(half_length, r, 0.0f, 0.0f));
}

// Box centred at c with half extents h.
static inline rb_geom box_at(rb_float3 c, rb_float4 q, rb_float3 h)
{
    return rb_geom_make(RB_GEOM_BOX, rb_xform_make(c, q), rb_f4(h.x, h.y, h.z, 0.0f));
}

// Plane dot(n, x) <= offset, n normalised here.
static inline rb_geom plane_of(rb_float3 n, float offset)
{
    return rb_geom_make(RB_GEOM_PLANE, rb_xform_make(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity()),
                        rb_f4_from3(rb_normalize(n), offset));
}

// Rotation by `angle` radians about axis (ax, ay, az).
static inline rb_float4 turn(float ax, float ay, float az, float angle)
{
    return rb_quat_axis_angle(rb_f3(ax, ay, az), angle);
}

// Rotation by `deg` degrees about axis (x, y, z).
static inline rb_float4 rot(float x, float y, float z, float deg) { return turn(x, y, z, deg * (RB_PI / 180.0f)); }

// Rotation taking unit vector u to unit vector v (u = -v: half a turn about an axis normal to u).
static inline rb_float4 rotation_between(rb_float3 u, rb_float3 v)
{
    rb_float3 axis = rb_cross(u, v);
    if (rb_len(axis) < 1e-6f && rb_dot(u, v) < 0.0f)
        axis = fabsf(u.x) < 0.9f ? rb_cross(u, rb_f3(1.0f, 0.0f, 0.0f)) : rb_cross(u, rb_f3(0.0f, 1.0f, 0.0f));
    float angle = atan2f(rb_len(rb_cross(u, v)), rb_dot(u, v));
    return rb_quat_axis_angle(axis, angle);
}

// ---- assertions on manifolds ---------------------------------------------------------------------

static inline void assert_vec_equal(rb_float3 v, float x, float y, float z, float tol)
{
    assert_float_equal(v.x, x, tol);
    assert_float_equal(v.y, y, tol);
    assert_float_equal(v.z, z, tol);
}

static inline void assert_normal(rb_manifold m, float x, float y, float z, float tol)
{
    assert_vec_equal(m.normal, x, y, z, tol);
}

static inline const rb_manifold_point *point_with_id(const rb_manifold *m, unsigned int id)
{
    for (int i = 0; i < m->count; ++i)
        if (m->points[i].id == id)
            return &m->points[i];
    return NULL;
}

// Index of the manifold point within `tol` of p, or fails.
static inline int find_point(rb_manifold m, rb_float3 p, float tol)
{
    for (int i = 0; i < m.count; ++i)
        if (fabsf(m.points[i].point.x - p.x) <= tol && fabsf(m.points[i].point.y - p.y) <= tol &&
            fabsf(m.points[i].point.z - p.z) <= tol)
            return i;
    fail_msg("no contact point near (%g, %g, %g)", (double)p.x, (double)p.y, (double)p.z);
    return -1;
}

static inline void assert_ids_unique(rb_manifold m)
{
    for (int i = 0; i < m.count; ++i)
        for (int j = i + 1; j < m.count; ++j)
            assert_int_not_equal(m.points[i].id, m.points[j].id);
}

// Ids of m, sorted.
static inline void sorted_ids(rb_manifold m, unsigned int *ids)
{
    for (int i = 0; i < m.count; ++i)
        ids[i] = m.points[i].id;
    for (int i = 0; i < m.count; ++i)
        for (int j = i + 1; j < m.count; ++j)
            if (ids[j] < ids[i]) {
                unsigned int t = ids[i];
                ids[i] = ids[j];
                ids[j] = t;
            }
}

// m1 names the same features as m0: as many points, unique ids, the same ids in any order.
static inline void assert_same_ids(rb_manifold m0, rb_manifold m1)
{
    assert_int_equal(m1.count, m0.count);
    assert_ids_unique(m1);
    unsigned int id0[RB_MAX_MANIFOLD_POINTS], id1[RB_MAX_MANIFOLD_POINTS];
    sorted_ids(m0, id0);
    sorted_ids(m1, id1);
    for (int k = 0; k < m0.count; ++k)
        assert_int_equal(id1[k], id0[k]);
}

typedef void (*collide_fn)(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m);

// `fn` on a manifold filled with garbage: the routine must set everything it reports.
static inline rb_manifold collide_from_garbage(collide_fn fn, rb_geom a, rb_geom b, float margin)
{
    rb_manifold m;
    memset(&m, 0xab, sizeof m);
    fn(&a, &b, margin, &m);
    return m;
}

// ---- seeded randomness and rigid motions -------------------------------------------------------------

static uint32_t rng_state;

static inline float frand(float lo, float hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng_state >> 8) * (1.0f / 16777216.0f);
}

static inline rb_float3 random_vec(float lo, float hi) { return rb_f3(frand(lo, hi), frand(lo, hi), frand(lo, hi)); }

static inline rb_float4 random_rotation(void)
{
    for (;;) {
        rb_float4 q = rb_f4(frand(-1.0f, 1.0f), frand(-1.0f, 1.0f), frand(-1.0f, 1.0f), frand(-1.0f, 1.0f));
        float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (l2 > 0.01f && l2 <= 1.0f)
            return rb_quat_normalize(q);
    }
}

// 15% the identity, 15% a quarter-turn multiple about a local axis, possibly nudged by up to 2e-3
// rad (parallel and nearly parallel faces and edges), else random_rotation().
static inline rb_float4 random_rotation_often_aligned(void)
{
    float pick = frand(0.0f, 1.0f);
    if (pick < 0.15f)
        return rb_quat_identity();
    if (pick < 0.3f) {
        int axis = (int)frand(0.0f, 2.999f);
        float nudge = frand(0.0f, 1.0f) < 0.5f ? 0.0f : frand(-2e-3f, 2e-3f);
        return turn(axis == 0, axis == 1, axis == 2, 0.5f * RB_PI * (float)(int)frand(0.0f, 3.999f) + nudge);
    }
    return random_rotation();
}

static inline rb_xform random_motion(void) { return rb_xform_make(random_vec(-5.0f, 5.0f), random_rotation()); }

// The same rigid motion applied to every shape of a configuration (a plane: its normal turns and
// its offset follows the translation).
static inline rb_geom moved(rb_geom g, rb_xform motion)
{
    if (g.type == RB_GEOM_PLANE) {
        rb_float3 n = rb_rotate(motion.q, rb_xyz(g.params));
        g.params = rb_f4_from3(n, g.params.w + rb_dot(n, motion.p));
    } else {
        g.xf = rb_xform_mul(motion, g.xf);
    }
    return g;
}

enum { NUDGES = 4 };

// The i-th (0 .. NUDGES-1) of a few tiny motions of g: a 1e-4 m shift and a 1e-3 rad turn, along
// and about different axes. The same features should touch before and after.
static inline rb_geom nudged(rb_geom g, int i)
{
    const rb_float3 shifts[NUDGES] = {
        {1e-4f, 0.0f, 0.0f}, {0.0f, 1e-4f, 0.0f}, {0.0f, 0.0f, -1e-4f}, {-1e-4f, -1e-4f, 1e-4f}};
    const rb_float3 axes[NUDGES] = {{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}, {1.0f, -2.0f, 3.0f}};
    rb_geom g1 = g;
    g1.xf.p = rb_add(g.xf.p, shifts[i]);
    g1.xf.q = rb_quat_normalize(rb_quat_mul(rb_quat_axis_angle(axes[i], (i & 1) ? -1e-3f : 1e-3f), g.xf.q));
    return g1;
}

// m1 is m0 carried by `motion`: same count, ids and separations; normal and points moved.
static inline void assert_manifold_moved(const rb_manifold *m0, const rb_manifold *m1, rb_xform motion, float tol)
{
    assert_int_equal(m1->count, m0->count);
    rb_float3 n = rb_rotate(motion.q, m0->normal);
    assert_vec_equal(m1->normal, n.x, n.y, n.z, tol);
    for (int i = 0; i < m0->count; ++i) {
        const rb_manifold_point *q = point_with_id(m1, m0->points[i].id);
        assert_non_null(q);
        rb_float3 p = rb_xform_point(motion, m0->points[i].point);
        assert_vec_equal(q->point, p.x, p.y, p.z, tol);
        assert_float_equal(q->separation, m0->points[i].separation, tol);
    }
}

// Carries the pair (a, b) by `motions` random rigid motions: each time, `fn` must give m0 carried
// along (see assert_manifold_moved).
static inline void assert_contact_moves_rigidly(collide_fn fn, rb_geom a, rb_geom b, float margin,
                                                const rb_manifold *m0, int motions, float tol)
{
    for (int i = 0; i < motions; ++i) {
        rb_xform motion = random_motion();
        rb_geom am = moved(a, motion), bm = moved(b, motion);
        rb_manifold m1 = {0};
        fn(&am, &bm, margin, &m1);
        assert_manifold_moved(m0, &m1, motion, tol);
    }
}

// ---- reference geometry, in double -----------------------------------------------------------------

typedef struct dvec {
    double x, y, z;
} dvec;

static inline dvec dv(double x, double y, double z)
{
    dvec v = {x, y, z};
    return v;
}
static inline dvec dv_from(rb_float3 v) { return dv((double)v.x, (double)v.y, (double)v.z); }

static inline dvec dsub(dvec a, dvec b) { return dv(a.x - b.x, a.y - b.y, a.z - b.z); }

static inline double ddot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static inline dvec dcross(dvec a, dvec b)
{
    return dv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static inline double dlen(dvec a) { return sqrt(ddot(a, a)); }

// p + s n
static inline dvec along(rb_float3 p, dvec n, double s)
{
    dvec q = dv_from(p);
    return dv(q.x + s * n.x, q.y + s * n.y, q.z + s * n.z);
}

// Two ways to a shape's axes. axis_of takes the kernels' float rotation matrix as exact (the sdf()
// family below measures the kernels' own shapes); drotate and daxes rotate by the quaternion in double
// (the box-box and capsule-box references).

// Shape axis k (0 = x, 1 = y, 2 = z) in world, in double.
static inline dvec axis_of(const rb_geom *g, int k)
{
    rb_mat3 r = rb_mat3_from_quat(g->xf.q);
    rb_float3 c = k == 0 ? rb_f3(r.r0.x, r.r1.x, r.r2.x)
                         : (k == 1 ? rb_f3(r.r0.y, r.r1.y, r.r2.y) : rb_f3(r.r0.z, r.r1.z, r.r2.z));
    return dv_from(c);
}

// World point x in the frame of shape g, in double (g's rotation taken as exact).
static inline dvec to_local(const rb_geom *g, dvec x)
{
    dvec d = dsub(x, dv_from(g->xf.p));
    return dv(ddot(axis_of(g, 0), d), ddot(axis_of(g, 1), d), ddot(axis_of(g, 2), d));  // R^T (x - p)
}

// Rotate v by the (normalised) quaternion q: v + 2w (u x v) + 2 u x (u x v).
static inline dvec drotate(rb_float4 q, dvec v)
{
    double qx = (double)q.x, qy = (double)q.y, qz = (double)q.z, qw = (double)q.w;
    double n = sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    dvec u = {qx / n, qy / n, qz / n};
    dvec t = dcross(u, v);
    t = (dvec){2 * t.x, 2 * t.y, 2 * t.z};
    dvec c = dcross(u, t);
    return (dvec){v.x + qw / n * t.x + c.x, v.y + qw / n * t.y + c.y, v.z + qw / n * t.z + c.z};
}

// The world axes of a shape turned by q.
static inline void daxes(rb_float4 q, dvec out[3])
{
    for (int k = 0; k < 3; ++k)
        out[k] = drotate(q, dv(k == 0, k == 1, k == 2));
}

// Distance from p to the box g (0 inside).
static inline double point_box_distance_d(rb_geom g, dvec p)
{
    dvec ax[3];
    daxes(g.xf.q, ax);
    dvec d = dsub(p, dv_from(g.xf.p));
    double h[3] = {(double)g.params.x, (double)g.params.y, (double)g.params.z}, s = 0.0;
    for (int k = 0; k < 3; ++k) {
        double e = fabs(ddot(d, ax[k])) - h[k];
        if (e > 0.0)
            s += e * e;
    }
    return sqrt(s);
}

static inline double point_box_distance(rb_geom g, rb_float3 p) { return point_box_distance_d(g, dv_from(p)); }

// Signed distance from x to the surface of g (negative inside).
static inline double sdf(const rb_geom *g, dvec x)
{
    rb_float4 p = g->params;
    if (g->type == RB_GEOM_PLANE)
        return ddot(dv((double)p.x, (double)p.y, (double)p.z), x) - (double)p.w;
    dvec l = to_local(g, x);
    if (g->type == RB_GEOM_SPHERE)
        return dlen(l) - (double)p.x;
    if (g->type == RB_GEOM_CAPSULE) {
        double y = fmax(-(double)p.x, fmin((double)p.x, l.y));
        return dlen(dv(l.x, l.y - y, l.z)) - (double)p.y;
    }
    dvec q = dv(fabs(l.x) - (double)p.x, fabs(l.y) - (double)p.y, fabs(l.z) - (double)p.z);
    double outside = dlen(dv(fmax(q.x, 0.0), fmax(q.y, 0.0), fmax(q.z, 0.0)));
    double inside = fmin(fmax(q.x, fmax(q.y, q.z)), 0.0);
    return outside + inside;
}

// Support function of a finite shape: max over the shape of dot(u, x).
static inline double support(const rb_geom *g, dvec u)
{
    rb_float4 p = g->params;
    double s = ddot(u, dv_from(g->xf.p));
    if (g->type == RB_GEOM_SPHERE)
        return s + (double)p.x;
    if (g->type == RB_GEOM_CAPSULE)
        return s + (double)p.x * fabs(ddot(u, axis_of(g, 1))) + (double)p.y;
    return s + (double)p.x * fabs(ddot(u, axis_of(g, 0))) + (double)p.y * fabs(ddot(u, axis_of(g, 1))) +
           (double)p.z * fabs(ddot(u, axis_of(g, 2)));
}

// Gap between A and B along n: (min over B of n.x) - (max over A of n.x). For convex shapes the
// signed distance is the largest gap over all directions: a contact normal must reach it.
static inline double gap_along(const rb_geom *a, const rb_geom *b, dvec n)
{
    return -support(b, dv(-n.x, -n.y, -n.z)) - support(a, n);
}

// Signed distance of a sphere or capsule A to a finite convex shape B, in double: B's signed
// distance function (closed form, see sdf()) is smallest over A's core (the centre, or the segment,
// sampled at 2001 points and then narrowed by ternary search, since a convex shape's SDF is convex
// along a line), less A's radius.
static inline double core_sdf(const rb_geom *a, const rb_geom *b, double s)
{
    dvec c = dv_from(a->xf.p);
    dvec ax = axis_of(a, 1);
    double y = s * (double)a->params.x;
    return sdf(b, dv(c.x + y * ax.x, c.y + y * ax.y, c.z + y * ax.z));
}

static inline double brute_signed_distance(const rb_geom *a, const rb_geom *b)
{
    if (a->type == RB_GEOM_SPHERE)
        return sdf(b, dv_from(a->xf.p)) - (double)a->params.x;
    enum { N = 2000 };
    int best = 0;
    double best_f = 1e30;
    for (int i = 0; i <= N; ++i) {
        double f = core_sdf(a, b, -1.0 + 2.0 * i / N);
        if (f < best_f) {
            best_f = f;
            best = i;
        }
    }
    double lo = -1.0 + 2.0 * (best > 0 ? best - 1 : 0) / N;
    double hi = -1.0 + 2.0 * (best < N ? best + 1 : N) / N;
    for (int it = 0; it < 200; ++it) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (core_sdf(a, b, m1) < core_sdf(a, b, m2))
            hi = m2;
        else
            lo = m1;
    }
    return fmin(best_f, core_sdf(a, b, 0.5 * (lo + hi))) - (double)a->params.y;
}

// Signed distance between a finite shape and a plane, by sampling the shape's surface densely:
// spheres (and capsule end spheres) at 20000 Fibonacci points, boxes on a 21 x 21 grid per face (vertices included).
static inline double brute_plane_distance(const rb_geom *a, const rb_geom *plane)
{
    double best = 1e30;
    if (a->type == RB_GEOM_BOX) {
        for (int f = 0; f < 6; ++f) {
            int k = f / 2;
            double sk = (f & 1) ? 1.0 : -1.0;
            for (int i = 0; i <= 20; ++i) {
                for (int j = 0; j <= 20; ++j) {
                    double u[3];
                    u[k] = sk;
                    u[(k + 1) % 3] = -1.0 + i / 10.0;
                    u[(k + 2) % 3] = -1.0 + j / 10.0;
                    dvec x = dv_from(a->xf.p);
                    for (int c = 0; c < 3; ++c) {
                        dvec ax = axis_of(a, c);
                        double h = c == 0 ? (double)a->params.x : (c == 1 ? (double)a->params.y : (double)a->params.z);
                        x = dv(x.x + u[c] * h * ax.x, x.y + u[c] * h * ax.y, x.z + u[c] * h * ax.z);
                    }
                    best = fmin(best, sdf(plane, x));
                }
            }
        }
        return best;
    }
    // sphere: one centre; capsule: both segment ends
    int ends = a->type == RB_GEOM_CAPSULE ? 2 : 1;
    double r = a->type == RB_GEOM_CAPSULE ? (double)a->params.y : (double)a->params.x;
    for (int e = 0; e < ends; ++e) {
        dvec c = dv_from(a->xf.p);
        if (a->type == RB_GEOM_CAPSULE) {
            dvec ax = axis_of(a, 1);
            double s = (e == 0 ? -1.0 : 1.0) * (double)a->params.x;
            c = dv(c.x + s * ax.x, c.y + s * ax.y, c.z + s * ax.z);
        }
        enum { N = 20000 };
        for (int i = 0; i < N; ++i) {
            double y = 1.0 - 2.0 * (i + 0.5) / N;
            double rr = sqrt(1.0 - y * y);
            double phi = 2.399963229728653 * i;
            dvec x = dv(c.x + r * rr * cos(phi), c.y + r * y, c.z + r * rr * sin(phi));
            best = fmin(best, sdf(plane, x));
        }
    }
    return best;
}

// Invariants of a manifold against the reference signed distance `sd`: finite, unit normal, at
// most `max_count` points with unique ids, a contact exactly when sd < margin, the deepest
// separation equal to sd and none below it, a normal that achieves sd (against a plane B: the
// plane's normal, negated), and points midway between the surfaces: p -+ n sep/2 on the surfaces
// of A and B within `place_tol` for the deepest point, and inside or on them for the others (the
// second end of a tilted capsule is measured from its end sphere, whose lowest point lies inside
// the capsule). Returns 1 when there is a contact.
static inline int check_manifold(const rb_geom *a, const rb_geom *b, float margin, const rb_manifold *m, double sd,
                                 double tol, double place_tol, int max_count)
{
    assert_true(rb_is_finite3(m->normal));
    assert_float_equal(rb_len(m->normal), 1.0f, 1e-5f);
    assert_true(m->count >= 0 && m->count <= max_count && m->count <= RB_MAX_MANIFOLD_POINTS);
    if (sd < (double)margin - tol)
        assert_true(m->count >= 1);
    if (sd > (double)margin + tol)
        assert_int_equal(m->count, 0);
    if (m->count == 0)
        return 0;
    dvec n = dv_from(m->normal);
    double deepest = 1e30;
    int deepest_i = 0;
    for (int i = 0; i < m->count; ++i) {
        rb_manifold_point p = m->points[i];
        for (int j = 0; j < i; ++j)
            assert_true(m->points[j].id != p.id);
        assert_true(rb_is_finite3(p.point));
        assert_true(p.separation < margin);
        assert_true((double)p.separation >= sd - tol);
        if ((double)p.separation < deepest) {
            deepest = (double)p.separation;
            deepest_i = i;
        }
        double h = 0.5 * (double)p.separation;
        assert_true(sdf(a, along(p.point, n, -h)) <= place_tol);
        assert_true(sdf(b, along(p.point, n, h)) <= place_tol);
    }
    assert_float_equal(deepest, sd, tol);
    rb_manifold_point p = m->points[deepest_i];
    double h = 0.5 * (double)p.separation;
    assert_float_equal(sdf(a, along(p.point, n, -h)), 0.0, place_tol);
    assert_float_equal(sdf(b, along(p.point, n, h)), 0.0, place_tol);
    if (b->type == RB_GEOM_PLANE)
        assert_vec_equal(m->normal, -b->params.x, -b->params.y, -b->params.z, 1e-6f);
    else
        assert_true(gap_along(a, b, n) >= sd - tol);
    return 1;
}

#endif
