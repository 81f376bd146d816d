// rb_collide_sphere_plane: hand-computed contacts, rigid motion, degenerate input, and a seeded
// fuzz against a brute-force distance (the sphere surface sampled densely).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "kernels/collide_sphere_plane.h"

// ---- helpers ----

static rb_geom sphere_at(rb_float3 c, float r)
{
    return rb_geom_make(RB_GEOM_SPHERE, rb_xform_make(c, rb_quat_identity()), rb_f4(r, 0.0f, 0.0f, 0.0f));
}

// Plane dot(n, x) <= offset, n normalised here.
static rb_geom plane_of(rb_float3 n, float offset)
{
    return rb_geom_make(RB_GEOM_PLANE, rb_xform_make(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity()),
                        rb_f4_from3(rb_normalize(n), offset));
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

static void test_sphere_above_the_plane_beyond_the_margin_gives_no_contact(void **state)
{
    (void)state;
    // ground y <= 0, sphere r 0.5 at height 1: separation 1 - 0.5 = 0.5 >= margin 0.1
    rb_geom a = sphere_at(rb_f3(0.0f, 1.0f, 0.0f), 0.5f);
    rb_geom b = plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f);
    rb_manifold m = {0};
    rb_collide_sphere_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 0);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
}

static void test_sphere_within_the_margin_gives_a_speculative_contact(void **state)
{
    (void)state;
    // centre height 0.55, r 0.5: separation 0.05 < 0.1; lowest point y = 0.05, plane y = 0,
    // midway (2, 0.025, -1)
    rb_geom a = sphere_at(rb_f3(2.0f, 0.55f, -1.0f), 0.5f);
    rb_geom b = plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f);
    rb_manifold m = {0};
    rb_collide_sphere_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, 0.05f, 1e-6f);
    assert_vec_equal(m.points[0].point, 2.0f, 0.025f, -1.0f, 1e-6f);
    assert_int_equal(m.points[0].id, 0);
}

static void test_sphere_sunk_into_the_plane_gives_negative_separation_and_a_midway_point(void **state)
{
    (void)state;
    // r 1 at height 0.8: separation -0.2; lowest point y = -0.2, plane y = 0, midway y = -0.1
    rb_geom a = sphere_at(rb_f3(0.0f, 0.8f, 0.0f), 1.0f);
    rb_geom b = plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f);
    rb_manifold m = {0};
    rb_collide_sphere_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -0.2f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, -0.1f, 0.0f, 1e-6f);
}

static void test_tilted_plane_with_an_offset_gives_the_distance_along_its_normal(void **state)
{
    (void)state;
    // n = (1, 1, 0)/sqrt2, offset 1; centre (1, 1, 0): height 2/sqrt2 - 1 = 0.414214, r 0.5:
    // separation -0.085786; point c - n (r + h)/2 = 1 - 0.707107 * 0.457107 = 0.676777 in x and y
    rb_geom a = sphere_at(rb_f3(1.0f, 1.0f, 0.0f), 0.5f);
    rb_geom b = plane_of(rb_f3(1.0f, 1.0f, 0.0f), 1.0f);
    rb_manifold m = {0};
    rb_collide_sphere_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, -0.7071068f, -0.7071068f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.0857864f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.6767767f, 0.6767767f, 0.0f, 1e-6f);
}

static void test_centre_below_the_plane_gives_deep_penetration(void **state)
{
    (void)state;
    // r 0.5 at height -2: separation -2.5; sphere point (0, -2.5, 0) (lowest along n), plane point
    // (0, 0, 0), midway (0, -1.25, 0)
    rb_geom a = sphere_at(rb_f3(0.0f, -2.0f, 0.0f), 0.5f);
    rb_geom b = plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f);
    rb_manifold m = {0};
    rb_collide_sphere_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_float_equal(m.points[0].separation, -2.5f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, -1.25f, 0.0f, 1e-6f);
}

static void test_ceiling_plane_gives_an_upward_normal(void **state)
{
    (void)state;
    // n = (0, -1, 0), offset -3: solid where -y <= -3, i.e. y >= 3. The normal runs from the sphere
    // into the solid: (0, 1, 0). r 1 at y 2.5: height -2.5 + 3 = 0.5, separation -0.5; top of the
    // sphere y = 3.5, plane y = 3, midway (0, 3.25, 0)
    rb_geom a = sphere_at(rb_f3(0.0f, 2.5f, 0.0f), 1.0f);
    rb_geom b = plane_of(rb_f3(0.0f, -1.0f, 0.0f), -3.0f);
    rb_manifold m = {0};
    rb_collide_sphere_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -0.5f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, 3.25f, 0.0f, 1e-6f);
}

static void test_contact_moves_with_a_rigidly_moved_configuration(void **state)
{
    (void)state;
    rng_state = 5u;
    rb_geom a = sphere_at(rb_f3(0.3f, 0.45f, -0.2f), 0.5f);
    rb_geom b = plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f);
    rb_manifold m0 = {0};
    rb_collide_sphere_plane(&a, &b, 0.1f, &m0);
    assert_int_equal(m0.count, 1);
    for (int i = 0; i < 50; ++i) {
        rb_xform motion = random_motion();
        rb_geom am = moved(a, motion), bm = moved(b, motion);
        rb_manifold m1 = {0};
        rb_collide_sphere_plane(&am, &bm, 0.1f, &m1);
        assert_manifold_moved(&m0, &m1, motion, 2e-5f);
    }
}

static void test_feature_id_is_stable_under_tiny_perturbations(void **state)
{
    (void)state;
    rng_state = 9u;
    rb_geom b = plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f);
    for (int i = 0; i < 100; ++i) {
        rb_geom a = sphere_at(rb_f3(frand(-1e-4f, 1e-4f), 0.49f + frand(-1e-4f, 1e-4f), frand(-1e-4f, 1e-4f)), 0.5f);
        rb_manifold m = {0};
        rb_collide_sphere_plane(&a, &b, 0.01f, &m);
        assert_int_equal(m.count, 1);
        assert_int_equal(m.points[0].id, 0);
    }
}

// ---- fuzz ----

static void test_random_spheres_and_planes_agree_with_brute_force_distance(void **state)
{
    (void)state;
    // 2000 seeded pairs: plane of random normal through a random height below/above the centre.
    // The sampled minimum overestimates the true one by at most r (0.015 rad)^2 / 2 ~ 1.2e-4 r.
    rng_state = 77u;
    const float margin = 0.05f;
    int contacts = 0;
    for (int i = 0; i < 2000; ++i) {
        float r = frand(0.05f, 1.0f);
        rb_geom a = sphere_at(random_vec(-3.0f, 3.0f), r);
        rb_float3 n = rb_normalize(random_vec(-1.0f, 1.0f));
        float height = frand(-1.5f, 1.5f);  // of the centre above the plane
        rb_geom b = plane_of(n, rb_dot(n, a.xf.p) - height);
        rb_manifold m = {0};
        rb_collide_sphere_plane(&a, &b, margin, &m);
        contacts += check_manifold(&a, &b, margin, &m, brute_plane_distance(&a, &b), 2e-4, 1e-5, 1);
    }
    assert_true(contacts > 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_above_the_plane_beyond_the_margin_gives_no_contact),
        cmocka_unit_test(test_sphere_within_the_margin_gives_a_speculative_contact),
        cmocka_unit_test(test_sphere_sunk_into_the_plane_gives_negative_separation_and_a_midway_point),
        cmocka_unit_test(test_tilted_plane_with_an_offset_gives_the_distance_along_its_normal),
        cmocka_unit_test(test_centre_below_the_plane_gives_deep_penetration),
        cmocka_unit_test(test_ceiling_plane_gives_an_upward_normal),
        cmocka_unit_test(test_contact_moves_with_a_rigidly_moved_configuration),
        cmocka_unit_test(test_feature_id_is_stable_under_tiny_perturbations),
        cmocka_unit_test(test_random_spheres_and_planes_agree_with_brute_force_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
