// rb_collide_capsule_capsule: crossing, end-to-end and parallel capsules (two points), degenerate
// axes, rigid motion, stable ids, and a seeded fuzz against a brute-force signed distance.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "kernels/collide_capsule_capsule.h"
#include "kernels/collide_sphere_capsule.h"
#include "kernels/collide_sphere_sphere.h"

// ---- helpers ----

static rb_geom sphere_at(rb_float3 c, float r)
{
    return rb_geom_make(RB_GEOM_SPHERE, rb_xform_make(c, rb_quat_identity()), rb_f4(r, 0.0f, 0.0f, 0.0f));
}

static rb_geom capsule_at(rb_float3 c, rb_float4 q, float half_length, float r)
{
    return rb_geom_make(RB_GEOM_CAPSULE, rb_xform_make(c, q), rb_f4(half_length, r, 0.0f, 0.0f));
}

// Rotation by `deg` degrees about axis (x, y, z).
static rb_float4 rot(float x, float y, float z, float deg)
{
    return rb_quat_axis_angle(rb_f3(x, y, z), deg * (RB_PI / 180.0f));
}

static void assert_vec_equal(rb_float3 v, float x, float y, float z, float tol)
{
    assert_float_equal(v.x, x, tol);
    assert_float_equal(v.y, y, tol);
    assert_float_equal(v.z, z, tol);
}

static unsigned int rng_state;

static float frand(float lo, float hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng_state >> 8) * (1.0f / 16777216.0f);
}

static rb_float3 random_vec(float lo, float hi) { return rb_f3(frand(lo, hi), frand(lo, hi), frand(lo, hi)); }

static rb_float4 random_rotation(void)
{
    for (;;) {
        rb_float4 q = rb_f4(frand(-1.0f, 1.0f), frand(-1.0f, 1.0f), frand(-1.0f, 1.0f), frand(-1.0f, 1.0f));
        float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (l2 > 0.01f && l2 <= 1.0f)
            return rb_quat_normalize(q);
    }
}

static rb_xform random_motion(void) { return rb_xform_make(random_vec(-5.0f, 5.0f), random_rotation()); }

// The same rigid motion applied to every shape of a configuration (a plane: its normal turns and
// its offset follows the translation).
static rb_geom moved(rb_geom g, rb_xform motion)
{
    if (g.type == RB_GEOM_PLANE) {
        rb_float3 n = rb_rotate(motion.q, rb_xyz(g.params));
        g.params = rb_f4_from3(n, g.params.w + rb_dot(n, motion.p));
    } else {
        g.xf = rb_xform_mul(motion, g.xf);
    }
    return g;
}

static const rb_manifold_point *point_with_id(const rb_manifold *m, unsigned int id)
{
    for (int i = 0; i < m->count; ++i)
        if (m->points[i].id == id)
            return &m->points[i];
    return NULL;
}

// m1 is m0 carried by `motion`: same count, ids and separations; normal and points moved.
static void assert_manifold_moved(const rb_manifold *m0, const rb_manifold *m1, rb_xform motion, float tol)
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

// ---- brute force, in double ----

typedef struct dvec {
    double x, y, z;
} dvec;

static dvec dv(double x, double y, double z)
{
    dvec v = {x, y, z};
    return v;
}
static dvec dv_from(rb_float3 v) { return dv((double)v.x, (double)v.y, (double)v.z); }

static dvec dsub(dvec a, dvec b) { return dv(a.x - b.x, a.y - b.y, a.z - b.z); }

static double ddot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

static double dlen(dvec a) { return sqrt(ddot(a, a)); }

// p + s n
static dvec along(rb_float3 p, dvec n, double s)
{
    dvec q = dv_from(p);
    return dv(q.x + s * n.x, q.y + s * n.y, q.z + s * n.z);
}

// Shape axis k (0 = x, 1 = y, 2 = z) in world, in double.
static dvec axis_of(const rb_geom *g, int k)
{
    rb_mat3 r = rb_mat3_from_quat(g->xf.q);
    rb_float3 c = k == 0 ? rb_f3(r.r0.x, r.r1.x, r.r2.x) : (k == 1 ? rb_f3(r.r0.y, r.r1.y, r.r2.y) : rb_f3(r.r0.z, r.r1.z, r.r2.z));
    return dv_from(c);
}

// World point x in the frame of shape g, in double (g's rotation taken as exact).
static dvec to_local(const rb_geom *g, dvec x)
{
    dvec d = dsub(x, dv_from(g->xf.p));
    return dv(ddot(axis_of(g, 0), d), ddot(axis_of(g, 1), d), ddot(axis_of(g, 2), d));  // R^T (x - p)
}

// Signed distance from x to the surface of g (negative inside).
static double sdf(const rb_geom *g, dvec x)
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
static double support(const rb_geom *g, dvec u)
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
static double gap_along(const rb_geom *a, const rb_geom *b, dvec n)
{
    return -support(b, dv(-n.x, -n.y, -n.z)) - support(a, n);
}

// Signed distance of a sphere or capsule A to a finite convex shape B, in double: B's signed
// distance function (closed form, see sdf()) is smallest over A's core (the centre, or the segment,
// sampled at 2001 points and then narrowed by ternary search, since a convex shape's SDF is convex
// along a line), less A's radius.
static double core_sdf(const rb_geom *a, const rb_geom *b, double s)
{
    dvec c = dv_from(a->xf.p);
    dvec ax = axis_of(a, 1);
    double y = s * (double)a->params.x;
    return sdf(b, dv(c.x + y * ax.x, c.y + y * ax.y, c.z + y * ax.z));
}

static double brute_signed_distance(const rb_geom *a, const rb_geom *b)
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

// Invariants of a manifold against the brute-force signed distance `sd`: finite, unit normal, at
// most `max_count` points with unique ids, a contact exactly when sd < margin, the deepest
// separation equal to sd and none below it, a normal that achieves sd, and points
// midway between the surfaces: p -+ n sep/2 on the surfaces of A and B within `place_tol` for the
// deepest point, and inside or on them for the others (the second end of a tilted capsule is
// measured from its end sphere, whose lowest point lies inside the capsule). Returns 1 when there
// is a contact.
static int check_manifold(const rb_geom *a, const rb_geom *b, float margin, const rb_manifold *m, double sd, double tol,
                          double place_tol, int max_count)
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
    assert_true(gap_along(a, b, n) >= sd - tol);
    return 1;
}

// ---- hand-computed contacts ----

// Capsules of half length 1 and radius 0.5. Upright: segment along y. Along x: local y turned 90
// degrees about z (end 0 at +x). Along z: local y turned 90 degrees about x (end 1 at +z).
static rb_geom upright(float x, float y, float z) { return capsule_at(rb_f3(x, y, z), rb_quat_identity(), 1.0f, 0.5f); }
static rb_geom along_x(float x, float y, float z) { return capsule_at(rb_f3(x, y, z), rot(0.0f, 0.0f, 1.0f, 90.0f), 1.0f, 0.5f); }
static rb_geom along_z(float x, float y, float z) { return capsule_at(rb_f3(x, y, z), rot(1.0f, 0.0f, 0.0f, 90.0f), 1.0f, 0.5f); }

static void test_crossed_capsules_touch_at_one_point_between_the_axes(void **state)
{
    (void)state;
    // A along x at the origin, B along z at height 0.9: closest axis points (0, 0, 0) and
    // (0, 0.9, 0), both interior (id 1*3 + 1 = 4); normal (0, 1, 0), separation 0.9 - 1 = -0.1;
    // A's surface y = 0.5, B's y = 0.4, midway (0, 0.45, 0)
    rb_geom a = along_x(0.0f, 0.0f, 0.0f);
    rb_geom b = along_z(0.0f, 0.9f, 0.0f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, 0.45f, 0.0f, 1e-6f);
    assert_int_equal(m.points[0].id, 4);
}

static void test_intersecting_axes_give_the_normal_across_both_axes(void **state)
{
    (void)state;
    // A along x, B along z, both at the origin: the axes cross, distance 0. The normal is
    // ua x ub = (-1, 0, 0) x (0, 0, 1) = (0, 1, 0); separation -1; A's surface (0, 0.5, 0), B's
    // (0, -0.5, 0), midway the origin. Seen from B: ub x ua = (0, -1, 0). With B moved along its own
    // axis (centre at z = 0.3) the axes still cross, up to rounding: the normal stays across both
    // axes (its side then follows the rounding; either is as deep) and the depth stays -1.
    rb_geom a = along_x(0.0f, 0.0f, 0.0f);
    rb_geom b = along_z(0.0f, 0.0f, 0.0f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -1.0f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, 0.0f, 0.0f, 1e-6f);
    rb_collide_capsule_capsule(&b, &a, 0.0f, &m);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -1.0f, 1e-6f);
    b.xf.p.z = 0.3f;
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_float_equal(fabsf(m.normal.y), 1.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -1.0f, 1e-6f);
    b.xf.p.z = 0.0f;
    // B's centre slightly below A's axis: the normal turns towards it, (0, -1, 0)
    b.xf.p.y = -0.2f;
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.8f, 1e-6f);
}

static void test_capsules_end_to_end_touch_at_their_ends(void **state)
{
    (void)state;
    // both upright, B 2.9 above A: A's top end (0, 1, 0), B's bottom end (0, 1.9, 0); parallel but
    // not overlapping along the axis, so one point: normal (0, 1, 0), separation -0.1, midway
    // between y = 1.5 and 1.4: (0, 1.45, 0); id: end of A (2), start of B (0) = 6
    rb_geom a = upright(0.0f, 0.0f, 0.0f);
    rb_geom b = upright(0.0f, 2.9f, 0.0f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, 1.45f, 0.0f, 1e-6f);
    assert_int_equal(m.points[0].id, 6);
}

static void test_parallel_overlapping_capsules_give_two_points_over_the_overlap(void **state)
{
    (void)state;
    // both upright, B at (0.9, 0.5, 0): A spans y in [-1, 1], B [-0.5, 1.5], overlap [-0.5, 1].
    // Normal (1, 0, 0), separation 0.9 - 1 = -0.1 at both ends; x midway (0.5 + 0.4)/2 = 0.45.
    // Lower point y -0.5: B's start over A's interior, id 1*3 + 0 = 3; upper y 1: A's end over B's
    // interior, id 2*3 + 1 = 7
    rb_geom a = upright(0.0f, 0.0f, 0.0f);
    rb_geom b = upright(0.9f, 0.5f, 0.0f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 2);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    assert_float_equal(m.points[1].separation, -0.1f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.45f, -0.5f, 0.0f, 1e-6f);
    assert_vec_equal(m.points[1].point, 0.45f, 1.0f, 0.0f, 1e-6f);
    assert_int_equal(m.points[0].id, 3);
    assert_int_equal(m.points[1].id, 7);
}

static void test_antiparallel_capsules_name_the_other_end_of_b(void **state)
{
    (void)state;
    // as above with B upside down (half a turn about x): its end 1 is now the lower one, so the
    // lower point's id is 1*3 + 2 = 5; the geometry is unchanged
    rb_geom a = upright(0.0f, 0.0f, 0.0f);
    rb_geom b = upright(0.9f, 0.5f, 0.0f);
    b.xf.q = rb_f4(1.0f, 0.0f, 0.0f, 0.0f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 2);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.45f, -0.5f, 0.0f, 1e-6f);
    assert_vec_equal(m.points[1].point, 0.45f, 1.0f, 0.0f, 1e-6f);
    assert_int_equal(m.points[0].id, 5);
    assert_int_equal(m.points[1].id, 7);
}

static void test_capsule_inside_a_longer_one_is_clipped_at_its_own_ends(void **state)
{
    (void)state;
    // A upright half length 1; B upright half length 0.3 at (0.6, 0.2, 0) (r 0.5): B spans
    // [-0.1, 0.5], inside A's extent: both points are B's ends over A's interior, ids 3 and 5;
    // separation 0.6 - 1 = -0.4; x midway (0.5 + 0.1)/2 = 0.3
    rb_geom a = upright(0.0f, 0.0f, 0.0f);
    rb_geom b = capsule_at(rb_f3(0.6f, 0.2f, 0.0f), rb_quat_identity(), 0.3f, 0.5f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 2);
    assert_vec_equal(m.points[0].point, 0.3f, -0.1f, 0.0f, 1e-6f);
    assert_vec_equal(m.points[1].point, 0.3f, 0.5f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.4f, 1e-6f);
    assert_int_equal(m.points[0].id, 3);
    assert_int_equal(m.points[1].id, 5);
}

static void test_slightly_tilted_parallel_capsules_keep_two_points_with_their_own_depths(void **state)
{
    (void)state;
    // B at (0.9, 0, 0) turned 0.005 rad about z (within the 0.01 rad tolerance): axis
    // (-0.005, 0.9999875, 0), ends (0.905, -0.9999875, 0) and (0.895, 0.9999875, 0). Closest points:
    // B's end 1 and A's axis, normal (1, 0, 0). Lower point at B's end 0: separation 0.905 - 1 =
    // -0.095, x midway (0.5 + 0.405)/2 = 0.4525, id 3; upper at B's end 1: -0.105, x 0.4475, id 5
    rb_geom a = upright(0.0f, 0.0f, 0.0f);
    rb_geom b = capsule_at(rb_f3(0.9f, 0.0f, 0.0f), rb_quat_axis_angle(rb_f3(0.0f, 0.0f, 1.0f), 0.005f), 1.0f, 0.5f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 2);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.095f, 1e-6f);
    assert_float_equal(m.points[1].separation, -0.105f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.4525f, -0.9999875f, 0.0f, 1e-6f);
    assert_vec_equal(m.points[1].point, 0.4475f, 0.9999875f, 0.0f, 1e-6f);
    assert_int_equal(m.points[0].id, 3);
    assert_int_equal(m.points[1].id, 5);
    // turned 0.02 rad: no longer parallel, one point at B's end 1: separation
    // 0.9 - sin(0.02) - 1 = -0.119999, id 1*3 + 2 = 5
    b.xf.q = rb_quat_axis_angle(rb_f3(0.0f, 0.0f, 1.0f), 0.02f);
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1199987f, 1e-6f);
    assert_int_equal(m.points[0].id, 5);
}

static void test_nearly_parallel_capsules_take_the_normal_from_the_closest_ends(void **state)
{
    (void)state;
    // B at (0.9, 0.3, 0) turned 3.75e-4 rad about z: axis (-3.75e-4, 1, 0), ends (0.900375, -0.7, 0)
    // and (0.899625, 1.3, 0). Overlap along A's axis y in [-0.7, 1]. The closest pair is A's end
    // (0, 1, 0) and its foot on B, distance 0.8997374, direction (1, 3.75e-4, 0) (perpendicular to B).
    // Measured along it: upper point (A's end over B, id 7) -0.1002626, lower point (B's end 0 over
    // A, id 3) -0.0996251; points midway: (0.4501875, -0.7, 0) and (0.4498688, 1, 0)
    rb_geom a = upright(0.0f, 0.0f, 0.0f);
    rb_geom b = capsule_at(rb_f3(0.9f, 0.3f, 0.0f), rb_quat_axis_angle(rb_f3(0.0f, 0.0f, 1.0f), 3.75e-4f), 1.0f, 0.5f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 2);
    assert_vec_equal(m.normal, 1.0f, 3.75e-4f, 0.0f, 2e-6f);
    assert_int_equal(m.points[0].id, 3);
    assert_int_equal(m.points[1].id, 7);
    assert_float_equal(m.points[0].separation, -0.0996251f, 2e-6f);
    assert_float_equal(m.points[1].separation, -0.1002626f, 2e-6f);
    assert_vec_equal(m.points[0].point, 0.4501875f, -0.7f, 0.0f, 2e-6f);
    assert_vec_equal(m.points[1].point, 0.4498688f, 1.0f, 0.0f, 2e-6f);
}

static void test_nearly_parallel_capsules_reach_the_true_closest_distance(void **state)
{
    (void)state;
    // a pair from the fuzz, axes 3.75e-4 rad apart: rb_segment_segment_closest alone returns B's end
    // 0 against A at distance 0.9271379, but the closest pair is A's end 1 against B (t = 0.3725),
    // distance 0.9270035 (double-precision grid search). Depth: 0.9270035 - 0.6662318 - 0.4543109 =
    // -0.1935392, reached by the deepest point and along the normal.
    rb_geom a = capsule_at(rb_f3(1.64820051f, 1.30916595f, 0.948515415f),
                           rb_f4(-0.975184083f, 0.0300940294f, -0.218981579f, -0.0125413993f), 0.51632756f, 0.666231751f);
    rb_geom b = capsule_at(rb_f3(2.48348951f, 0.577870965f, 0.666378617f),
                           rb_f4(-0.975215971f, 0.0302822553f, -0.218815297f, -0.0125136571f), 0.610684216f, 0.454310894f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.05f, &m);
    assert_int_equal(m.count, 2);
    float deepest = rb_minf(m.points[0].separation, m.points[1].separation);
    assert_float_equal(deepest, -0.1935392f, 2e-6f);
    assert_float_equal(gap_along(&a, &b, dv_from(m.normal)), -0.1935392, 2e-6);
}

static void test_coincident_parallel_axes_use_the_x_axis_of_b(void **state)
{
    (void)state;
    // B upright at (0, 0.5, 0): the axes coincide over [-0.5, 1], no direction of their own;
    // normal = B's local x = (1, 0, 0), separation -1, x midway (0.5 - 0.5)/2 = 0
    rb_geom a = upright(0.0f, 0.0f, 0.0f);
    rb_geom b = upright(0.0f, 0.5f, 0.0f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 2);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -1.0f, 1e-6f);
    assert_float_equal(m.points[1].separation, -1.0f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, -0.5f, 0.0f, 1e-6f);
    assert_vec_equal(m.points[1].point, 0.0f, 1.0f, 0.0f, 1e-6f);
}

static void test_parallel_capsules_within_the_margin_give_speculative_points_and_none_beyond(void **state)
{
    (void)state;
    // side by side 1.05 apart, fully overlapping: separation 0.05 at both ends. Margin 0.1: two
    // points at x = (0.5 + 0.55)/2 = 0.525, y -1 and 1; margin 0.04: none
    rb_geom a = upright(0.0f, 0.0f, 0.0f);
    rb_geom b = upright(1.05f, 0.0f, 0.0f);
    rb_manifold m = {0};
    rb_collide_capsule_capsule(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 2);
    assert_float_equal(m.points[0].separation, 0.05f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.525f, -1.0f, 0.0f, 1e-6f);
    assert_vec_equal(m.points[1].point, 0.525f, 1.0f, 0.0f, 1e-6f);
    rb_collide_capsule_capsule(&a, &b, 0.04f, &m);
    assert_int_equal(m.count, 0);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 1e-6f);
}

static void test_zero_length_capsules_behave_as_spheres(void **state)
{
    (void)state;
    // A of half length 0 against B: the normal, points and separations of rb_collide_sphere_capsule;
    // B of half length 0: those of the swapped pair with the normal reversed; both of half length 0:
    // those of rb_collide_sphere_sphere, (0, 1, 0) for coincident centres included
    rng_state = 61u;
    for (int i = 0; i < 200; ++i) {
        float ra = frand(0.1f, 0.8f), rb = frand(0.1f, 0.8f);
        rb_geom a = capsule_at(random_vec(-1.0f, 1.0f), random_rotation(), 0.0f, ra);
        rb_geom b = capsule_at(random_vec(-1.0f, 1.0f), random_rotation(), frand(0.1f, 1.0f), rb);
        rb_geom sa = sphere_at(a.xf.p, ra);
        rb_manifold mc = {0}, ms = {0};
        rb_collide_capsule_capsule(&a, &b, 0.1f, &mc);
        rb_collide_sphere_capsule(&sa, &b, 0.1f, &ms);
        assert_int_equal(mc.count, ms.count);
        assert_vec_equal(mc.normal, ms.normal.x, ms.normal.y, ms.normal.z, 0.0f);
        for (int k = 0; k < mc.count; ++k) {
            assert_vec_equal(mc.points[k].point, ms.points[k].point.x, ms.points[k].point.y, ms.points[k].point.z, 0.0f);
            assert_float_equal(mc.points[k].separation, ms.points[k].separation, 0.0f);
        }
        rb_collide_capsule_capsule(&b, &a, 0.1f, &mc);
        assert_int_equal(mc.count, ms.count);
        assert_vec_equal(mc.normal, -ms.normal.x, -ms.normal.y, -ms.normal.z, 1e-6f);
        for (int k = 0; k < mc.count; ++k) {
            rb_float3 p = ms.points[k].point;
            assert_vec_equal(mc.points[k].point, p.x, p.y, p.z, 1e-6f);
            assert_float_equal(mc.points[k].separation, ms.points[k].separation, 1e-6f);
        }
        b.params.x = 0.0f;
        if (i == 0)
            b.xf.p = a.xf.p;
        rb_geom sb = sphere_at(b.xf.p, rb);
        rb_collide_capsule_capsule(&a, &b, 0.1f, &mc);
        rb_collide_sphere_sphere(&sa, &sb, 0.1f, &ms);
        assert_int_equal(mc.count, ms.count);
        assert_vec_equal(mc.normal, ms.normal.x, ms.normal.y, ms.normal.z, 0.0f);
        if (i == 0)
            assert_vec_equal(mc.normal, 0.0f, 1.0f, 0.0f, 0.0f);
        for (int k = 0; k < mc.count; ++k)
            assert_float_equal(mc.points[k].separation, ms.points[k].separation, 0.0f);
    }
}

static void test_swapping_the_capsules_negates_the_normal(void **state)
{
    (void)state;
    // crossed, skew, end-to-end and parallel pairs: seen from B the normal is reversed and the
    // points and separations are the same
    rb_geom pairs[4][2] = {
        {along_x(0.0f, 0.0f, 0.0f), along_z(0.1f, 0.9f, 0.2f)},
        {capsule_at(rb_f3(0.3f, 0.1f, 0.0f), rot(1.0f, 1.0f, 0.0f, 30.0f), 0.7f, 0.4f),
         capsule_at(rb_f3(-0.2f, 0.8f, 0.3f), rot(0.0f, 1.0f, 1.0f, 70.0f), 0.9f, 0.3f)},
        {upright(0.0f, 0.0f, 0.0f), upright(0.1f, 2.9f, 0.0f)},
        {upright(0.0f, 0.0f, 0.0f), upright(0.9f, 0.5f, 0.0f)},
    };
    for (int k = 0; k < 4; ++k) {
        rb_manifold ab = {0}, ba = {0};
        rb_collide_capsule_capsule(&pairs[k][0], &pairs[k][1], 0.05f, &ab);
        rb_collide_capsule_capsule(&pairs[k][1], &pairs[k][0], 0.05f, &ba);
        assert_true(ab.count >= 1);
        assert_int_equal(ba.count, ab.count);
        assert_vec_equal(ba.normal, -ab.normal.x, -ab.normal.y, -ab.normal.z, 1e-6f);
        for (int i = 0; i < ab.count; ++i) {
            rb_float3 p = ab.points[i].point;
            assert_vec_equal(ba.points[i].point, p.x, p.y, p.z, 1e-6f);
            assert_float_equal(ba.points[i].separation, ab.points[i].separation, 1e-6f);
        }
    }
}

static void test_contact_moves_with_a_rigidly_moved_configuration(void **state)
{
    (void)state;
    // crossed, parallel (two points) and end-to-end pairs, each carried by 50 motions
    rng_state = 71u;
    rb_geom pairs[3][2] = {
        {along_x(0.0f, 0.0f, 0.0f), along_z(0.1f, 0.9f, 0.2f)},
        {upright(0.0f, 0.0f, 0.0f), upright(0.9f, 0.5f, 0.0f)},
        {upright(0.0f, 0.0f, 0.0f), capsule_at(rb_f3(0.3f, 2.8f, 0.0f), rot(0.0f, 0.0f, 1.0f, 20.0f), 1.0f, 0.5f)},
    };
    for (int k = 0; k < 3; ++k) {
        rb_manifold m0 = {0};
        rb_collide_capsule_capsule(&pairs[k][0], &pairs[k][1], 0.1f, &m0);
        assert_int_equal(m0.count, k == 1 ? 2 : 1);
        for (int i = 0; i < 50; ++i) {
            rb_xform motion = random_motion();
            rb_geom am = moved(pairs[k][0], motion), bm = moved(pairs[k][1], motion);
            rb_manifold m1 = {0};
            rb_collide_capsule_capsule(&am, &bm, 0.1f, &m1);
            assert_manifold_moved(&m0, &m1, motion, 5e-5f);
        }
    }
}

static void test_feature_ids_are_stable_under_tiny_perturbations(void **state)
{
    (void)state;
    // jitter of 1e-4 in position and attitude: a parallel pair keeps ids 3 and 7, a crossed pair 4
    rng_state = 83u;
    for (int i = 0; i < 100; ++i) {
        rb_float4 dq = rb_quat_axis_angle(random_vec(-1.0f, 1.0f), frand(-1e-4f, 1e-4f));
        rb_geom a = upright(0.0f, 0.0f, 0.0f);
        rb_geom b = upright(0.98f + frand(-1e-4f, 1e-4f), 0.5f + frand(-1e-4f, 1e-4f), frand(-1e-4f, 1e-4f));
        b.xf.q = rb_quat_mul(dq, b.xf.q);
        rb_manifold m = {0};
        rb_collide_capsule_capsule(&a, &b, 0.05f, &m);
        assert_int_equal(m.count, 2);
        assert_int_equal(m.points[0].id, 3);
        assert_int_equal(m.points[1].id, 7);
        rb_geom c = along_x(0.0f, 0.0f, 0.0f);
        rb_geom d = along_z(frand(-1e-4f, 1e-4f), 0.98f + frand(-1e-4f, 1e-4f), frand(-1e-4f, 1e-4f));
        d.xf.q = rb_quat_mul(dq, d.xf.q);
        rb_collide_capsule_capsule(&c, &d, 0.05f, &m);
        assert_int_equal(m.count, 1);
        assert_int_equal(m.points[0].id, 4);
    }
}

// ---- fuzz ----

static void test_random_capsule_pairs_agree_with_brute_force_distance(void **state)
{
    (void)state;
    // 3000 seeded pairs: one in four nearly parallel (B turned from A by up to 0.008 rad, half of
    // them flipped), one in ten with a zero-length capsule. Within a two-point manifold the points
    // may sit off the surfaces sideways by half the skew of the axes, overlap * sin(angle) / 2.
    rng_state = 1234u;
    const float margin = 0.05f;
    int contacts = 0, two = 0;
    for (int i = 0; i < 3000; ++i) {
        float hla = i % 10 == 3 ? 0.0f : frand(0.05f, 1.0f);
        float hlb = i % 10 == 7 ? 0.0f : frand(0.05f, 1.0f);
        rb_geom a = capsule_at(random_vec(-3.0f, 3.0f), random_rotation(), hla, frand(0.05f, 0.8f));
        rb_float4 qb = random_rotation();
        if (i % 4 == 0) {
            qb = rb_quat_mul(rb_quat_axis_angle(random_vec(-1.0f, 1.0f), frand(0.0f, 0.008f)), a.xf.q);
            if (i % 8 == 0)
                qb = rb_quat_mul(qb, rb_f4(1.0f, 0.0f, 0.0f, 0.0f));
        }
        float rb = frand(0.05f, 0.8f);
        float reach = a.params.y + rb;
        rb_float3 local = rb_f3(frand(-1.2f, 1.2f) * reach, frand(-1.0f, 1.0f) * (hla + hlb + reach), frand(-1.2f, 1.2f) * reach);
        rb_geom b = capsule_at(rb_xform_point(a.xf, local), qb, hlb, rb);
        rb_manifold m = {0};
        rb_collide_capsule_capsule(&a, &b, margin, &m);
        rb_float3 ua = rb_rotate(a.xf.q, rb_f3(0.0f, 1.0f, 0.0f));
        rb_float3 ub = rb_rotate(b.xf.q, rb_f3(0.0f, 1.0f, 0.0f));
        double skew = m.count == 2 ? (double)(2.0f * rb_minf(hla, hlb) * rb_len(rb_cross(ua, ub))) : 0.0;
        contacts += check_manifold(&a, &b, margin, &m, brute_signed_distance(&a, &b), 5e-5, 5e-5 + skew, 2);
        two += m.count == 2;
    }
    assert_true(contacts > 1000);
    assert_true(two > 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossed_capsules_touch_at_one_point_between_the_axes),
        cmocka_unit_test(test_intersecting_axes_give_the_normal_across_both_axes),
        cmocka_unit_test(test_capsules_end_to_end_touch_at_their_ends),
        cmocka_unit_test(test_parallel_overlapping_capsules_give_two_points_over_the_overlap),
        cmocka_unit_test(test_antiparallel_capsules_name_the_other_end_of_b),
        cmocka_unit_test(test_capsule_inside_a_longer_one_is_clipped_at_its_own_ends),
        cmocka_unit_test(test_slightly_tilted_parallel_capsules_keep_two_points_with_their_own_depths),
        cmocka_unit_test(test_nearly_parallel_capsules_take_the_normal_from_the_closest_ends),
        cmocka_unit_test(test_nearly_parallel_capsules_reach_the_true_closest_distance),
        cmocka_unit_test(test_coincident_parallel_axes_use_the_x_axis_of_b),
        cmocka_unit_test(test_parallel_capsules_within_the_margin_give_speculative_points_and_none_beyond),
        cmocka_unit_test(test_zero_length_capsules_behave_as_spheres),
        cmocka_unit_test(test_swapping_the_capsules_negates_the_normal),
        cmocka_unit_test(test_contact_moves_with_a_rigidly_moved_configuration),
        cmocka_unit_test(test_feature_ids_are_stable_under_tiny_perturbations),
        cmocka_unit_test(test_random_capsule_pairs_agree_with_brute_force_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
