// rb_collide_sphere_capsule: hand-computed contacts, centre on the axis, zero-length capsules,
// rigid motion, and a seeded fuzz against an independent signed distance.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

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

// Upright capsule at the origin: segment from (0, -1, 0) to (0, 1, 0), radius 0.5.
static rb_geom upright_capsule(void) { return capsule_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 1.0f, 0.5f); }

static void test_sphere_against_the_side_gives_a_radial_normal(void **state)
{
    (void)state;
    // r 0.5 at (0.9, 0.3, 0): closest axis point (0, 0.3, 0), distance 0.9, separation 0.9 - 1 =
    // -0.1; normal from the sphere to the axis (-1, 0, 0); sphere point (0.4, 0.3, 0), capsule
    // point (0.5, 0.3, 0), midway (0.45, 0.3, 0)
    rb_geom a = sphere_at(rb_f3(0.9f, 0.3f, 0.0f), 0.5f);
    rb_geom b = upright_capsule();
    rb_manifold m = {0};
    rb_collide_sphere_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, -1.0f, 0.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.45f, 0.3f, 0.0f, 1e-6f);
    assert_int_equal(m.points[0].id, 0);
}

static void test_sphere_against_the_end_cap_gives_a_normal_towards_the_end_point(void **state)
{
    (void)state;
    // r 0.5 at (0.3, 1.4, 0): closest axis point the end (0, 1, 0), offset (-0.3, -0.4, 0),
    // distance 0.5, n = (-0.6, -0.8, 0), separation -0.5; sphere point c + 0.5 n = (0, 1, 0),
    // capsule point (0, 1, 0) - 0.5 n = (0.3, 1.4, 0), midway (0.15, 1.2, 0)
    rb_geom a = sphere_at(rb_f3(0.3f, 1.4f, 0.0f), 0.5f);
    rb_geom b = upright_capsule();
    rb_manifold m = {0};
    rb_collide_sphere_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, -0.6f, -0.8f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.5f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.15f, 1.2f, 0.0f, 1e-6f);
}

static void test_sphere_above_the_cap_is_speculative_within_the_margin_only(void **state)
{
    (void)state;
    // r 0.5 at (0, 2.2, 0): distance to the end (0, 1, 0) 1.2, separation 0.2. Margin 0.25: one
    // point, normal (0, -1, 0), midway between y = 1.7 and 1.5: (0, 1.6, 0). Margin 0.1: none.
    rb_geom a = sphere_at(rb_f3(0.0f, 2.2f, 0.0f), 0.5f);
    rb_geom b = upright_capsule();
    rb_manifold m = {0};
    rb_collide_sphere_capsule(&a, &b, 0.25f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, 0.2f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, 1.6f, 0.0f, 1e-6f);
    rb_collide_sphere_capsule(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 0);
}

static void test_centre_on_the_axis_gives_the_capsule_x_axis_as_normal(void **state)
{
    (void)state;
    // r 0.25 at (0, 0.3, 0), on the axis: normal = the capsule's local x = (1, 0, 0), separation
    // -(0.25 + 0.5) = -0.75; sphere point (0.25, 0.3, 0), capsule point (-0.5, 0.3, 0), midway
    // (-0.125, 0.3, 0)
    rb_geom a = sphere_at(rb_f3(0.0f, 0.3f, 0.0f), 0.25f);
    rb_geom b = upright_capsule();
    rb_manifold m = {0};
    rb_collide_sphere_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -0.75f, 1e-6f);
    assert_vec_equal(m.points[0].point, -0.125f, 0.3f, 0.0f, 1e-6f);
    // capsule turned half a turn about z, q = (0, 0, 1, 0) exactly: its local x is world -x
    b.xf.q = rb_f4(0.0f, 0.0f, 1.0f, 0.0f);
    rb_collide_sphere_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, -1.0f, 0.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -0.75f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.125f, 0.3f, 0.0f, 1e-6f);
}

static void test_centre_on_a_rotated_axis_gives_a_normal_perpendicular_to_it(void **state)
{
    (void)state;
    // the centre placed on the axis of a rotated, translated capsule: rounding leaves a tiny offset,
    // but the normal stays perpendicular to the axis and the separation is -(rA + rB) = -0.75
    rb_geom b = capsule_at(rb_f3(1.1f, 2.3f, -0.7f), rot(1.0f, 2.0f, 3.0f, 40.0f), 1.0f, 0.5f);
    rb_float3 axis = rb_rotate(b.xf.q, rb_f3(0.0f, 1.0f, 0.0f));
    float ys[4] = {-0.77f, 0.0f, 0.37f, 0.999f};
    for (int i = 0; i < 4; ++i) {
        rb_geom a = sphere_at(rb_xform_point(b.xf, rb_f3(0.0f, ys[i], 0.0f)), 0.25f);
        rb_manifold m = {0};
        rb_collide_sphere_capsule(&a, &b, 0.0f, &m);
        assert_int_equal(m.count, 1);
        assert_float_equal(rb_len(m.normal), 1.0f, 1e-6f);
        assert_float_equal(rb_dot(m.normal, axis), 0.0f, 1e-5f);
        assert_float_equal(m.points[0].separation, -0.75f, 1e-5f);
    }
}

static void test_centre_on_an_end_point_gives_a_finite_perpendicular_normal(void **state)
{
    (void)state;
    // centre exactly at the end (0, 1, 0): the closest point is the end itself, the fallback (1, 0, 0)
    // is used; separation -(0.3 + 0.5) = -0.8; midway between (0.3, 1, 0) and (-0.5, 1, 0): (-0.1, 1, 0)
    rb_geom a = sphere_at(rb_f3(0.0f, 1.0f, 0.0f), 0.3f);
    rb_geom b = upright_capsule();
    rb_manifold m = {0};
    rb_collide_sphere_capsule(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -0.8f, 1e-6f);
    assert_vec_equal(m.points[0].point, -0.1f, 1.0f, 0.0f, 1e-6f);
}

static void test_zero_length_capsule_behaves_as_a_sphere(void **state)
{
    (void)state;
    // half_length 0: the same manifold, bit for bit, as rb_collide_sphere_sphere with the capsule's
    // radius, including coincident centres (normal (0, 1, 0))
    rng_state = 21u;
    for (int i = 0; i < 200; ++i) {
        rb_geom a = sphere_at(random_vec(-1.0f, 1.0f), frand(0.1f, 1.0f));
        rb_geom b = capsule_at(i == 0 ? a.xf.p : random_vec(-1.0f, 1.0f), random_rotation(), 0.0f, frand(0.1f, 1.0f));
        rb_geom bs = sphere_at(b.xf.p, b.params.y);
        rb_manifold mc = {0}, ms = {0};
        rb_collide_sphere_capsule(&a, &b, 0.1f, &mc);
        rb_collide_sphere_sphere(&a, &bs, 0.1f, &ms);
        assert_int_equal(mc.count, ms.count);
        assert_vec_equal(mc.normal, ms.normal.x, ms.normal.y, ms.normal.z, 0.0f);
        if (i == 0)
            assert_vec_equal(mc.normal, 0.0f, 1.0f, 0.0f, 0.0f);
        for (int k = 0; k < mc.count; ++k) {
            assert_vec_equal(mc.points[k].point, ms.points[k].point.x, ms.points[k].point.y, ms.points[k].point.z, 0.0f);
            assert_float_equal(mc.points[k].separation, ms.points[k].separation, 0.0f);
            assert_int_equal(mc.points[k].id, ms.points[k].id);
        }
    }
}

static void test_contact_moves_with_a_rigidly_moved_configuration(void **state)
{
    (void)state;
    // side, cap and deep contacts, each carried by 50 motions
    rng_state = 31u;
    rb_geom b = capsule_at(rb_f3(0.2f, -0.1f, 0.4f), rot(0.0f, 1.0f, 1.0f, 25.0f), 0.8f, 0.4f);
    rb_float3 local[3] = {rb_f3(0.7f, 0.2f, 0.1f), rb_f3(0.2f, 1.3f, -0.3f), rb_f3(0.1f, -0.4f, 0.05f)};
    for (int k = 0; k < 3; ++k) {
        rb_geom a = sphere_at(rb_xform_point(b.xf, local[k]), 0.45f);
        rb_manifold m0 = {0};
        rb_collide_sphere_capsule(&a, &b, 0.1f, &m0);
        assert_int_equal(m0.count, 1);
        for (int i = 0; i < 50; ++i) {
            rb_xform motion = random_motion();
            rb_geom am = moved(a, motion), bm = moved(b, motion);
            rb_manifold m1 = {0};
            rb_collide_sphere_capsule(&am, &bm, 0.1f, &m1);
            assert_manifold_moved(&m0, &m1, motion, 5e-5f);
        }
    }
}

static void test_feature_id_is_stable_under_tiny_perturbations(void **state)
{
    (void)state;
    // a sphere resting where the cylinder meets the cap: the id does not change as it jitters
    rng_state = 41u;
    rb_geom b = upright_capsule();
    for (int i = 0; i < 100; ++i) {
        rb_geom a = sphere_at(rb_f3(0.95f + frand(-1e-4f, 1e-4f), 1.0f + frand(-1e-4f, 1e-4f), frand(-1e-4f, 1e-4f)), 0.5f);
        rb_manifold m = {0};
        rb_collide_sphere_capsule(&a, &b, 0.01f, &m);
        assert_int_equal(m.count, 1);
        assert_int_equal(m.points[0].id, 0);
    }
}

// ---- fuzz ----

static void test_random_spheres_and_capsules_agree_with_an_independent_signed_distance(void **state)
{
    (void)state;
    // 3000 seeded pairs, one in ten with a zero-length capsule
    rng_state = 5150u;
    const float margin = 0.05f;
    int contacts = 0;
    for (int i = 0; i < 3000; ++i) {
        float hl = i % 10 == 0 ? 0.0f : frand(0.05f, 1.0f);
        rb_geom b = capsule_at(random_vec(-3.0f, 3.0f), random_rotation(), hl, frand(0.05f, 0.8f));
        float r = frand(0.05f, 0.8f);
        float reach = b.params.y + r;
        rb_float3 local = rb_f3(frand(-1.2f, 1.2f) * reach, frand(-1.2f, 1.2f) * (hl + reach), frand(-1.2f, 1.2f) * reach);
        rb_geom a = sphere_at(rb_xform_point(b.xf, local), r);
        rb_manifold m = {0};
        rb_collide_sphere_capsule(&a, &b, margin, &m);
        contacts += check_manifold(&a, &b, margin, &m, brute_signed_distance(&a, &b), 5e-5, 5e-5, 1);
    }
    assert_true(contacts > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_against_the_side_gives_a_radial_normal),
        cmocka_unit_test(test_sphere_against_the_end_cap_gives_a_normal_towards_the_end_point),
        cmocka_unit_test(test_sphere_above_the_cap_is_speculative_within_the_margin_only),
        cmocka_unit_test(test_centre_on_the_axis_gives_the_capsule_x_axis_as_normal),
        cmocka_unit_test(test_centre_on_a_rotated_axis_gives_a_normal_perpendicular_to_it),
        cmocka_unit_test(test_centre_on_an_end_point_gives_a_finite_perpendicular_normal),
        cmocka_unit_test(test_zero_length_capsule_behaves_as_a_sphere),
        cmocka_unit_test(test_contact_moves_with_a_rigidly_moved_configuration),
        cmocka_unit_test(test_feature_id_is_stable_under_tiny_perturbations),
        cmocka_unit_test(test_random_spheres_and_capsules_agree_with_an_independent_signed_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
