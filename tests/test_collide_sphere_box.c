// rb_collide_sphere_box: hand-computed contacts (face, edge, vertex, centre inside), rigid motion,
// degenerate input, and a seeded fuzz against an independent signed distance.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "kernels/collide_sphere_box.h"

// ---- helpers ----

static rb_geom sphere_at(rb_float3 c, float r)
{
    return rb_geom_make(RB_GEOM_SPHERE, rb_xform_make(c, rb_quat_identity()), rb_f4(r, 0.0f, 0.0f, 0.0f));
}

static rb_geom box_at(rb_float3 c, rb_float4 q, rb_float3 h)
{
    return rb_geom_make(RB_GEOM_BOX, rb_xform_make(c, q), rb_f4(h.x, h.y, h.z, 0.0f));
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

static rb_geom unit_box(void) { return box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(1.0f, 1.0f, 1.0f)); }

static void test_sphere_on_a_face_gives_the_face_normal(void **state)
{
    (void)state;
    // unit box, r 0.5 at (0, 1.4, 0): distance to the top face 0.4, separation -0.1; normal from the
    // sphere down into the box (0, -1, 0); sphere point (0, 0.9, 0), box point (0, 1, 0), midway 0.95
    rb_geom a = sphere_at(rb_f3(0.0f, 1.4f, 0.0f), 0.5f);
    rb_geom b = unit_box();
    rb_manifold m = {0};
    rb_collide_sphere_box(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, 0.95f, 0.0f, 1e-6f);
    assert_int_equal(m.points[0].id, 0);
}

static void test_sphere_on_an_edge_gives_the_direction_to_the_edge(void **state)
{
    (void)state;
    // r 0.6 at (1.3, 1.4, 0): closest box point (1, 1, 0), offset (-0.3, -0.4, 0), distance 0.5,
    // n = (-0.6, -0.8, 0), separation -0.1; sphere point c + 0.6 n = (0.94, 0.92, 0), midway with
    // (1, 1, 0): (0.97, 0.96, 0)
    rb_geom a = sphere_at(rb_f3(1.3f, 1.4f, 0.0f), 0.6f);
    rb_geom b = unit_box();
    rb_manifold m = {0};
    rb_collide_sphere_box(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, -0.6f, -0.8f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.97f, 0.96f, 0.0f, 1e-6f);
}

static void test_sphere_on_a_vertex_gives_the_diagonal_normal(void **state)
{
    (void)state;
    // r 1 at (1.5, 1.5, 1.5): closest point the vertex (1, 1, 1), distance sqrt(0.75) = 0.866025,
    // separation -0.133975, n = -(1, 1, 1)/sqrt3; sphere point 1.5 - 0.577350 = 0.922650, midway
    // with 1: 0.961325 in each coordinate
    rb_geom a = sphere_at(rb_f3(1.5f, 1.5f, 1.5f), 1.0f);
    rb_geom b = unit_box();
    rb_manifold m = {0};
    rb_collide_sphere_box(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, -0.5773503f, -0.5773503f, -0.5773503f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1339746f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.9613249f, 0.9613249f, 0.9613249f, 1e-6f);
}

static void test_sphere_within_the_margin_gives_a_speculative_contact_and_none_beyond(void **state)
{
    (void)state;
    // r 0.5 at (0.2, -1.55, 0.3): 0.05 below the bottom face. Margin 0.1: one point, separation
    // 0.05, normal (0, 1, 0) (up into the box), midway between y = -1.05 and y = -1: -1.025.
    // Margin 0.05: separation is not below it, no point.
    rb_geom a = sphere_at(rb_f3(0.2f, -1.55f, 0.3f), 0.5f);
    rb_geom b = unit_box();
    rb_manifold m = {0};
    rb_collide_sphere_box(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, 0.05f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.2f, -1.025f, 0.3f, 1e-6f);
    rb_collide_sphere_box(&a, &b, 0.04f, &m);
    assert_int_equal(m.count, 0);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 1e-6f);
}

static void test_centre_inside_the_box_is_pushed_out_through_the_nearest_face(void **state)
{
    (void)state;
    // box half extents (2, 1, 3), r 0.25 at (0.5, 0.7, -1): depths below the faces x 1.5, y 0.3,
    // z 2 -> the +y face. Normal (0, -1, 0), separation -(0.3 + 0.25) = -0.55; box point
    // (0.5, 1, -1), sphere point (0.5, 0.45, -1), midway (0.5, 0.725, -1)
    rb_geom a = sphere_at(rb_f3(0.5f, 0.7f, -1.0f), 0.25f);
    rb_geom b = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(2.0f, 1.0f, 3.0f));
    rb_manifold m = {0};
    rb_collide_sphere_box(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -0.55f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.5f, 0.725f, -1.0f, 1e-6f);
}

static void test_centre_inside_below_a_negative_face_uses_that_face(void **state)
{
    (void)state;
    // half extents (1, 1, 1), r 0.1 at (0, 0, -0.8): nearest face -z at depth 0.2; its outward
    // normal is (0, 0, -1), so the contact normal is (0, 0, 1); separation -0.3; box point
    // (0, 0, -1), sphere point (0, 0, -0.7), midway (0, 0, -0.85)
    rb_geom a = sphere_at(rb_f3(0.0f, 0.0f, -0.8f), 0.1f);
    rb_geom b = unit_box();
    rb_manifold m = {0};
    rb_collide_sphere_box(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, 0.0f, 1.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -0.3f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, 0.0f, -0.85f, 1e-6f);
}

static void test_centre_at_the_box_centre_breaks_the_tie_towards_plus_x(void **state)
{
    (void)state;
    // cube, centre at its centre: all depths 1, ties go to x and to the + face: normal (-1, 0, 0),
    // separation -(1 + 0.5) = -1.5; box point (1, 0, 0), sphere point (-0.5, 0, 0), midway (0.25, 0, 0)
    rb_geom a = sphere_at(rb_f3(0.0f, 0.0f, 0.0f), 0.5f);
    rb_geom b = unit_box();
    rb_manifold m = {0};
    rb_collide_sphere_box(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, -1.0f, 0.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -1.5f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.25f, 0.0f, 0.0f, 1e-6f);
}

static void test_centre_on_the_face_is_continuous_with_centres_just_outside_and_inside(void **state)
{
    (void)state;
    // r 0.5 centred on the top face: separation -0.5, normal (0, -1, 0), midway (0, 0.75, 0);
    // 1e-4 above or below the face the separation moves by 1e-4 and the normal stays
    rb_geom b = unit_box();
    rb_manifold m = {0};
    float heights[3] = {1.0f - 1e-4f, 1.0f, 1.0f + 1e-4f};
    for (int i = 0; i < 3; ++i) {
        rb_geom a = sphere_at(rb_f3(0.3f, heights[i], -0.2f), 0.5f);
        rb_collide_sphere_box(&a, &b, 0.0f, &m);
        assert_int_equal(m.count, 1);
        assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 1e-6f);
        assert_float_equal(m.points[0].separation, heights[i] - 1.5f, 1e-6f);
        assert_vec_equal(m.points[0].point, 0.3f, 0.5f * (heights[i] - 0.5f + 1.0f), -0.2f, 1e-6f);
    }
}

static void test_rotated_box_is_touched_on_its_top_edge(void **state)
{
    (void)state;
    // unit box turned 45 degrees about z: its top is the edge x = 0, y = sqrt2 = 1.414214.
    // r 0.5 at (0, sqrt2 + 0.4, 0.5): distance 0.4, separation -0.1, normal (0, -1, 0);
    // midway between y = sqrt2 - 0.1 and sqrt2: 1.364214
    rb_geom a = sphere_at(rb_f3(0.0f, 1.4142136f + 0.4f, 0.5f), 0.5f);
    rb_geom b = box_at(rb_f3(0.0f, 0.0f, 0.0f), rot(0.0f, 0.0f, 1.0f, 45.0f), rb_f3(1.0f, 1.0f, 1.0f));
    rb_manifold m = {0};
    rb_collide_sphere_box(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, 1.3642136f, 0.5f, 1e-6f);
}

static void test_contact_moves_with_a_rigidly_moved_configuration(void **state)
{
    (void)state;
    // an edge contact, a face contact and a centre inside the box, each carried by 50 motions
    rng_state = 3u;
    rb_geom b = box_at(rb_f3(0.1f, 0.2f, 0.3f), rot(1.0f, 2.0f, 3.0f, 30.0f), rb_f3(1.0f, 0.5f, 0.75f));
    rb_float3 local[3] = {rb_f3(1.2f, 0.7f, 0.0f), rb_f3(0.3f, 0.9f, -0.2f), rb_f3(0.2f, 0.1f, -0.5f)};
    for (int k = 0; k < 3; ++k) {
        rb_geom a = sphere_at(rb_xform_point(b.xf, local[k]), 0.5f);
        rb_manifold m0 = {0};
        rb_collide_sphere_box(&a, &b, 0.1f, &m0);
        assert_int_equal(m0.count, 1);
        for (int i = 0; i < 50; ++i) {
            rb_xform motion = random_motion();
            rb_geom am = moved(a, motion), bm = moved(b, motion);
            rb_manifold m1 = {0};
            rb_collide_sphere_box(&am, &bm, 0.1f, &m1);
            assert_manifold_moved(&m0, &m1, motion, 5e-5f);
        }
    }
}

static void test_feature_id_is_stable_under_tiny_perturbations(void **state)
{
    (void)state;
    // a sphere resting on a face near an edge: the id does not change as it jitters
    rng_state = 13u;
    rb_geom b = unit_box();
    for (int i = 0; i < 100; ++i) {
        rb_geom a = sphere_at(rb_f3(1.0f + frand(-1e-4f, 1e-4f), 1.45f + frand(-1e-4f, 1e-4f), frand(-1e-4f, 1e-4f)), 0.5f);
        rb_manifold m = {0};
        rb_collide_sphere_box(&a, &b, 0.01f, &m);
        assert_int_equal(m.count, 1);
        assert_int_equal(m.points[0].id, 0);
    }
}

// ---- fuzz ----

static void test_random_spheres_and_boxes_agree_with_an_independent_signed_distance(void **state)
{
    (void)state;
    // 3000 seeded pairs: random box sizes and poses, sphere centres anywhere from inside the box to
    // beyond the margin
    rng_state = 4242u;
    const float margin = 0.05f;
    int contacts = 0, inside = 0;
    for (int i = 0; i < 3000; ++i) {
        rb_float3 h = random_vec(0.1f, 1.0f);
        rb_geom b = box_at(random_vec(-3.0f, 3.0f), random_rotation(), h);
        float r = frand(0.05f, 0.8f);
        rb_float3 local = rb_f3(frand(-1.2f, 1.2f) * (h.x + r), frand(-1.2f, 1.2f) * (h.y + r), frand(-1.2f, 1.2f) * (h.z + r));
        inside += fabsf(local.x) < h.x && fabsf(local.y) < h.y && fabsf(local.z) < h.z;
        rb_geom a = sphere_at(rb_xform_point(b.xf, local), r);
        rb_manifold m = {0};
        rb_collide_sphere_box(&a, &b, margin, &m);
        contacts += check_manifold(&a, &b, margin, &m, brute_signed_distance(&a, &b), 5e-5, 5e-5, 1);
    }
    assert_true(contacts > 1000);
    assert_true(inside > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_on_a_face_gives_the_face_normal),
        cmocka_unit_test(test_sphere_on_an_edge_gives_the_direction_to_the_edge),
        cmocka_unit_test(test_sphere_on_a_vertex_gives_the_diagonal_normal),
        cmocka_unit_test(test_sphere_within_the_margin_gives_a_speculative_contact_and_none_beyond),
        cmocka_unit_test(test_centre_inside_the_box_is_pushed_out_through_the_nearest_face),
        cmocka_unit_test(test_centre_inside_below_a_negative_face_uses_that_face),
        cmocka_unit_test(test_centre_at_the_box_centre_breaks_the_tie_towards_plus_x),
        cmocka_unit_test(test_centre_on_the_face_is_continuous_with_centres_just_outside_and_inside),
        cmocka_unit_test(test_rotated_box_is_touched_on_its_top_edge),
        cmocka_unit_test(test_contact_moves_with_a_rigidly_moved_configuration),
        cmocka_unit_test(test_feature_id_is_stable_under_tiny_perturbations),
        cmocka_unit_test(test_random_spheres_and_boxes_agree_with_an_independent_signed_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
