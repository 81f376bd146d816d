// rb_collide_capsule_plane: one or two end points, hand-computed contacts, rigid motion, degenerate
// input, and a seeded fuzz against a brute-force distance (the capsule surface sampled densely).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "kernels/collide_capsule_plane.h"
#include "kernels/collide_sphere_plane.h"

// ---- helpers ----

static rb_geom sphere_at(rb_float3 c, float r)
{
    return rb_geom_make(RB_GEOM_SPHERE, rb_xform_make(c, rb_quat_identity()), rb_f4(r, 0.0f, 0.0f, 0.0f));
}

static rb_geom capsule_at(rb_float3 c, rb_float4 q, float half_length, float r)
{
    return rb_geom_make(RB_GEOM_CAPSULE, rb_xform_make(c, q), rb_f4(half_length, r, 0.0f, 0.0f));
}

// Plane dot(n, x) <= offset, n normalised here.
static rb_geom plane_of(rb_float3 n, float offset)
{
    return rb_geom_make(RB_GEOM_PLANE, rb_xform_make(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity()),
                        rb_f4_from3(rb_normalize(n), offset));
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

// Signed distance between a finite shape and a plane, by sampling the shape's surface densely:
// spheres (and capsule end spheres) at 20000 Fibonacci points, boxes on a 21 x 21 grid per face (vertices included).
static double brute_plane_distance(const rb_geom *a, const rb_geom *plane)
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

// Invariants of a manifold against the brute-force signed distance `sd`: finite, unit normal, at
// most `max_count` points with unique ids, a contact exactly when sd < margin, the deepest
// separation equal to sd and none below it, the normal minus the plane's, and points
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
    assert_vec_equal(m->normal, -b->params.x, -b->params.y, -b->params.z, 1e-6f);
    return 1;
}

// ---- hand-computed contacts ----

// Capsule with its axis along x: local y turned 90 degrees about z goes to world -x, so end 0
// (local y = -half_length) lies at +x and end 1 at -x.
static rb_geom lying_capsule(rb_float3 c, float half_length, float r)
{
    return capsule_at(c, rot(0.0f, 0.0f, 1.0f, 90.0f), half_length, r);
}

static rb_geom ground(void) { return plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f); }

static void test_capsule_lying_on_the_plane_gives_two_points(void **state)
{
    (void)state;
    // axis parallel to the ground at height 0.4, r 0.5: both ends 0.4 above, separation -0.1;
    // points e - n (r + h)/2 = e - (0, 0.45, 0): (1, -0.05, 0) id 0 and (-1, -0.05, 0) id 1
    rb_geom a = lying_capsule(rb_f3(0.0f, 0.4f, 0.0f), 1.0f, 0.5f);
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_capsule_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 2);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
    assert_int_equal(m.points[0].id, 0);
    assert_int_equal(m.points[1].id, 1);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    assert_float_equal(m.points[1].separation, -0.1f, 1e-6f);
    assert_vec_equal(m.points[0].point, 1.0f, -0.05f, 0.0f, 1e-6f);
    assert_vec_equal(m.points[1].point, -1.0f, -0.05f, 0.0f, 1e-6f);
}

static void test_standing_capsule_gives_one_point_under_its_lower_end(void **state)
{
    (void)state;
    // upright at height 1.45, half length 1, r 0.5: end 0 at y 0.45, separation -0.05, point
    // (0, 0.45 - 0.475, 0) = (0, -0.025, 0), id 0; end 1 at y 2.45 is 1.95 away: no point
    rb_geom a = capsule_at(rb_f3(0.0f, 1.45f, 0.0f), rb_quat_identity(), 1.0f, 0.5f);
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_capsule_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 1);
    assert_int_equal(m.points[0].id, 0);
    assert_float_equal(m.points[0].separation, -0.05f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, -0.025f, 0.0f, 1e-6f);
    // upside down (half a turn about x): the same end point is now end 1
    a.xf.q = rb_f4(1.0f, 0.0f, 0.0f, 0.0f);
    rb_collide_capsule_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 1);
    assert_int_equal(m.points[0].id, 1);
    assert_float_equal(m.points[0].separation, -0.05f, 1e-6f);
}

static void test_tilted_capsule_touches_with_its_lower_end(void **state)
{
    (void)state;
    // turned 30 degrees about z, axis u = (-0.5, 0.866025, 0); centre (0, 1, 0), half length 1:
    // end 0 = c - u = (0.5, 0.133975, 0); r 0.2: separation -0.066025; point
    // (0.5, 0.133975 - (0.2 + 0.133975)/2, 0) = (0.5, -0.033013, 0); end 1 at y 1.87: none
    rb_geom a = capsule_at(rb_f3(0.0f, 1.0f, 0.0f), rot(0.0f, 0.0f, 1.0f, 30.0f), 1.0f, 0.2f);
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_capsule_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 1);
    assert_int_equal(m.points[0].id, 0);
    assert_float_equal(m.points[0].separation, -0.0660254f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.5f, -0.0330127f, 0.0f, 1e-6f);
}

static void test_capsule_within_the_margin_gives_speculative_points_and_none_beyond(void **state)
{
    (void)state;
    // lying at height 0.55, r 0.5: separation 0.05 at both ends. Margin 0.1: two points at
    // y = 0.55 - 0.525 = 0.025; margin 0.04: none
    rb_geom a = lying_capsule(rb_f3(0.0f, 0.55f, 2.0f), 1.0f, 0.5f);
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_capsule_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 2);
    assert_float_equal(m.points[0].separation, 0.05f, 1e-6f);
    assert_float_equal(m.points[1].separation, 0.05f, 1e-6f);
    assert_vec_equal(m.points[0].point, 1.0f, 0.025f, 2.0f, 1e-6f);
    rb_collide_capsule_plane(&a, &b, 0.04f, &m);
    assert_int_equal(m.count, 0);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
}

static void test_deeply_sunk_capsule_keeps_both_points(void **state)
{
    (void)state;
    // lying with its axis 0.7 below the ground, r 0.5: separation -1.2 at both ends;
    // points at y = -0.7 - (0.5 - 0.7)/2 = -0.6
    rb_geom a = lying_capsule(rb_f3(0.0f, -0.7f, 0.0f), 1.0f, 0.5f);
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_capsule_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 2);
    assert_float_equal(m.points[0].separation, -1.2f, 1e-6f);
    assert_float_equal(m.points[1].separation, -1.2f, 1e-6f);
    assert_float_equal(m.points[0].point.y, -0.6f, 1e-6f);
}

static void test_ceiling_plane_gives_the_opposite_normal(void **state)
{
    (void)state;
    // n = (0, 0, -1), offset -2: solid where z >= 2. Lying along x at z 1.6, r 0.5: height
    // -1.6 + 2 = 0.4, separation -0.1, normal (0, 0, 1); points at z = 1.6 + 0.45 = 2.05
    rb_geom a = lying_capsule(rb_f3(0.0f, 0.0f, 1.6f), 1.0f, 0.5f);
    rb_geom b = plane_of(rb_f3(0.0f, 0.0f, -1.0f), -2.0f);
    rb_manifold m = {0};
    rb_collide_capsule_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 2);
    assert_vec_equal(m.normal, 0.0f, 0.0f, 1.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    assert_float_equal(m.points[1].point.z, 2.05f, 1e-6f);
}

static void test_zero_length_capsule_behaves_as_a_sphere(void **state)
{
    (void)state;
    // half_length 0: one point, id 0, bit for bit the manifold of rb_collide_sphere_plane
    rng_state = 17u;
    for (int i = 0; i < 200; ++i) {
        rb_geom a = capsule_at(random_vec(-1.0f, 1.0f), random_rotation(), 0.0f, frand(0.1f, 1.0f));
        rb_geom s = sphere_at(a.xf.p, a.params.y);
        rb_geom b = plane_of(random_vec(-1.0f, 1.0f), frand(-1.0f, 1.0f));
        rb_manifold mc = {0}, ms = {0};
        rb_collide_capsule_plane(&a, &b, 0.1f, &mc);
        rb_collide_sphere_plane(&s, &b, 0.1f, &ms);
        assert_int_equal(mc.count, ms.count);
        assert_true(mc.count <= 1);
        assert_vec_equal(mc.normal, ms.normal.x, ms.normal.y, ms.normal.z, 0.0f);
        if (mc.count == 1) {
            assert_int_equal(mc.points[0].id, 0);
            assert_vec_equal(mc.points[0].point, ms.points[0].point.x, ms.points[0].point.y, ms.points[0].point.z, 0.0f);
            assert_float_equal(mc.points[0].separation, ms.points[0].separation, 0.0f);
        }
    }
}

static void test_contact_moves_with_a_rigidly_moved_configuration(void **state)
{
    (void)state;
    // a lying (two points) and a tilted (one point) capsule, each carried by 50 motions
    rng_state = 23u;
    rb_geom b = ground();
    rb_geom caps[2] = {lying_capsule(rb_f3(0.3f, 0.45f, -0.2f), 0.8f, 0.5f),
                       capsule_at(rb_f3(0.0f, 0.9f, 0.0f), rot(1.0f, 0.0f, 1.0f, 50.0f), 1.0f, 0.3f)};
    for (int k = 0; k < 2; ++k) {
        rb_manifold m0 = {0};
        rb_collide_capsule_plane(&caps[k], &b, 0.1f, &m0);
        assert_int_equal(m0.count, 2 - k);
        for (int i = 0; i < 50; ++i) {
            rb_xform motion = random_motion();
            rb_geom am = moved(caps[k], motion), bm = moved(b, motion);
            rb_manifold m1 = {0};
            rb_collide_capsule_plane(&am, &bm, 0.1f, &m1);
            assert_manifold_moved(&m0, &m1, motion, 5e-5f);
        }
    }
}

static void test_end_ids_are_stable_under_tiny_perturbations(void **state)
{
    (void)state;
    // a capsule resting on the ground, jittered by 1e-4 in position and 1e-4 rad in attitude:
    // always two points, end 0 then end 1
    rng_state = 29u;
    rb_geom b = ground();
    for (int i = 0; i < 100; ++i) {
        rb_float4 q = rb_quat_mul(rb_quat_axis_angle(random_vec(-1.0f, 1.0f), frand(-1e-4f, 1e-4f)), rot(0.0f, 0.0f, 1.0f, 90.0f));
        rb_geom a = capsule_at(rb_f3(frand(-1e-4f, 1e-4f), 0.49f + frand(-1e-4f, 1e-4f), frand(-1e-4f, 1e-4f)), q, 1.0f, 0.5f);
        rb_manifold m = {0};
        rb_collide_capsule_plane(&a, &b, 0.01f, &m);
        assert_int_equal(m.count, 2);
        for (int k = 0; k < m.count; ++k)
            assert_int_equal(m.points[k].id, k);
        assert_true(m.points[0].point.x > 0.9f);
    }
}

// ---- fuzz ----

static void test_random_capsules_and_planes_agree_with_brute_force_distance(void **state)
{
    (void)state;
    // 2000 seeded pairs (one in ten of zero length, one in ten parallel to the plane); the sampled
    // minimum overestimates the true one by at most r (0.015 rad)^2 / 2 ~ 1.2e-4 r
    rng_state = 99u;
    const float margin = 0.05f;
    int contacts = 0, two = 0;
    for (int i = 0; i < 2000; ++i) {
        float hl = i % 10 == 0 ? 0.0f : frand(0.05f, 1.0f);
        float r = frand(0.05f, 1.0f);
        rb_float3 n = rb_normalize(random_vec(-1.0f, 1.0f));
        rb_float4 q = random_rotation();
        if (i % 10 == 1) {
            // axis perpendicular to n: turn local y onto a direction in the plane
            rb_float3 u = rb_normalize(rb_cross(n, random_vec(-1.0f, 1.0f)));
            rb_float3 y = rb_f3(0.0f, 1.0f, 0.0f);
            q = rb_quat_axis_angle(rb_cross(y, u), acosf(rb_clampf(rb_dot(y, u), -1.0f, 1.0f)));
        }
        rb_geom a = capsule_at(random_vec(-3.0f, 3.0f), q, hl, r);
        float height = frand(-1.0f, 1.0f) * (hl + r) + frand(-0.3f, 0.3f);
        rb_geom b = plane_of(n, rb_dot(n, a.xf.p) - height);
        rb_manifold m = {0};
        rb_collide_capsule_plane(&a, &b, margin, &m);
        contacts += check_manifold(&a, &b, margin, &m, brute_plane_distance(&a, &b), 2e-4, 1e-5, hl > 0.0f ? 2 : 1);
        two += m.count == 2;
    }
    assert_true(contacts > 500);
    assert_true(two > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capsule_lying_on_the_plane_gives_two_points),
        cmocka_unit_test(test_standing_capsule_gives_one_point_under_its_lower_end),
        cmocka_unit_test(test_tilted_capsule_touches_with_its_lower_end),
        cmocka_unit_test(test_capsule_within_the_margin_gives_speculative_points_and_none_beyond),
        cmocka_unit_test(test_deeply_sunk_capsule_keeps_both_points),
        cmocka_unit_test(test_ceiling_plane_gives_the_opposite_normal),
        cmocka_unit_test(test_zero_length_capsule_behaves_as_a_sphere),
        cmocka_unit_test(test_contact_moves_with_a_rigidly_moved_configuration),
        cmocka_unit_test(test_end_ids_are_stable_under_tiny_perturbations),
        cmocka_unit_test(test_random_capsules_and_planes_agree_with_brute_force_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
