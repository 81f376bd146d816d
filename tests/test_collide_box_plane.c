// rb_collide_box_plane: resting, tilted and deep boxes, reduction of more than four vertices,
// rigid motion, stable ids, and a seeded fuzz against a brute-force distance.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "kernels/collide_box_plane.h"

// ---- helpers ----

static rb_geom box_at(rb_float3 c, rb_float4 q, rb_float3 h)
{
    return rb_geom_make(RB_GEOM_BOX, rb_xform_make(c, q), rb_f4(h.x, h.y, h.z, 0.0f));
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

static rb_geom ground(void) { return plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f); }

static void test_box_resting_flat_gives_its_four_bottom_vertices(void **state)
{
    (void)state;
    // half extents (1, 0.5, 2) at height 0.45: bottom vertices (bit 1 of the index clear: 0, 1, 4, 5)
    // at y -0.05, separation -0.05; points midway at y -0.025; top vertices 0.95 up: none
    rb_geom a = box_at(rb_f3(0.0f, 0.45f, 0.0f), rb_quat_identity(), rb_f3(1.0f, 0.5f, 2.0f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 4);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
    unsigned int ids[4] = {0, 1, 4, 5};
    float xs[4] = {-1.0f, 1.0f, -1.0f, 1.0f};
    float zs[4] = {-2.0f, -2.0f, 2.0f, 2.0f};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(m.points[i].id, ids[i]);
        assert_float_equal(m.points[i].separation, -0.05f, 1e-6f);
        assert_vec_equal(m.points[i].point, xs[i], -0.025f, zs[i], 1e-6f);
    }
}

static void test_box_balanced_on_an_edge_gives_its_two_edge_vertices(void **state)
{
    (void)state;
    // cube of half extent 0.5 turned 45 degrees about z, centre at height 0.7: world height of a
    // vertex 0.7 + (x + y) sin45, lowest for local x = y = -0.5: vertices 0 and 4, at
    // 0.7 - 0.707107 = -0.007107, x 0, z -+0.5; points midway at y -0.003553. The next vertices
    // are at height 0.7: none
    rb_geom a = box_at(rb_f3(0.0f, 0.7f, 0.0f), rot(0.0f, 0.0f, 1.0f, 45.0f), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 2);
    assert_int_equal(m.points[0].id, 0);
    assert_int_equal(m.points[1].id, 4);
    assert_float_equal(m.points[0].separation, -0.0071068f, 1e-6f);
    assert_float_equal(m.points[1].separation, -0.0071068f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, -0.0035534f, -0.5f, 1e-6f);
    assert_vec_equal(m.points[1].point, 0.0f, -0.0035534f, 0.5f, 1e-6f);
}

static void test_box_on_a_corner_gives_one_point(void **state)
{
    (void)state;
    // cube of half extent 0.5 with its diagonal (1, 1, 1) turned onto +y (about (-1, 0, 1)/sqrt2 by
    // acos(1/sqrt3) = 54.7356 degrees): vertex 0 (local (-1, -1, -1) * 0.5) is lowest, 0.5 sqrt3 =
    // 0.866025 below the centre; the next three are 0.5 sqrt3 / 3 = 0.288675 below. Centre at 0.85:
    // vertex 0 at -0.016025, point midway at (0, -0.008013, 0); the others 0.561 up: none
    rb_float4 q = rb_quat_axis_angle(rb_f3(-1.0f, 0.0f, 1.0f), acosf(1.0f / sqrtf(3.0f)));
    rb_geom a = box_at(rb_f3(0.0f, 0.85f, 0.0f), q, rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 1);
    assert_int_equal(m.points[0].id, 0);
    assert_float_equal(m.points[0].separation, -0.0160254f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, -0.0080127f, 0.0f, 1e-6f);
}

static void test_box_within_the_margin_gives_speculative_points_and_none_beyond(void **state)
{
    (void)state;
    // cube of half extent 0.5 at height 0.55: bottom separation 0.05. Margin 0.1: four points at
    // y 0.025; margin 0.04: none
    rb_geom a = box_at(rb_f3(3.0f, 0.55f, -1.0f), rb_quat_identity(), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 4);
    for (int i = 0; i < 4; ++i) {
        assert_float_equal(m.points[i].separation, 0.05f, 1e-6f);
        assert_float_equal(m.points[i].point.y, 0.025f, 1e-6f);
    }
    rb_collide_box_plane(&a, &b, 0.04f, &m);
    assert_int_equal(m.count, 0);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
}

static void test_ceiling_plane_touches_the_top_vertices_with_an_upward_normal(void **state)
{
    (void)state;
    // n = (0, -1, 0), offset -2: solid where y >= 2. Cube of half extent 0.5 at height 1.6: top
    // vertices (bit 1 set: 2, 3, 6, 7) at y 2.1, height -2.1 + 2 = -0.1; normal (0, 1, 0); points
    // midway at y 2.05
    rb_geom a = box_at(rb_f3(0.0f, 1.6f, 0.0f), rb_quat_identity(), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = plane_of(rb_f3(0.0f, -1.0f, 0.0f), -2.0f);
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 4);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 0.0f);
    unsigned int ids[4] = {2, 3, 6, 7};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(m.points[i].id, ids[i]);
        assert_float_equal(m.points[i].separation, -0.1f, 1e-6f);
        assert_float_equal(m.points[i].point.y, 2.05f, 1e-6f);
    }
}

static void test_box_sunk_below_the_plane_keeps_four_points_including_the_deepest(void **state)
{
    (void)state;
    // cube of half extent 0.5, tilted slightly so vertex 0 is deepest, centre 1 below the ground:
    // all eight vertices penetrate, reduced to four; the deepest (vertex 0, about -1.5) is kept
    rb_geom a = box_at(rb_f3(0.0f, -1.0f, 0.0f), rot(-1.0f, 0.0f, 1.0f, 5.0f), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 4);
    assert_int_equal(m.points[0].id, 0);
    float deepest = 0.0f;
    for (int i = 0; i < 4; ++i) {
        assert_true(rb_is_finite3(m.points[i].point));
        for (int j = 0; j < i; ++j)
            assert_true(m.points[i].id != m.points[j].id);
        deepest = rb_minf(deepest, m.points[i].separation);
    }
    assert_float_equal(deepest, m.points[0].separation, 0.0f);
    assert_true(deepest < -1.5f);
}

static void test_tilted_thin_plate_with_large_margin_gives_four_face_points_including_the_deepest(void **state)
{
    (void)state;
    // a thin plate (half height 0.05) with a margin (0.3) larger than its thickness: all eight vertices
    // are within the margin, but only the incident face's four are contact points. The deepest vertex
    // is among them, and the same input gives the same points.
    rb_geom a = box_at(rb_f3(0.0f, 0.06f, 0.0f), rot(1.0f, 0.0f, 1.0f, 1.0f), rb_f3(0.5f, 0.05f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0}, m2 = {0};
    rb_collide_box_plane(&a, &b, 0.3f, &m);
    rb_collide_box_plane(&a, &b, 0.3f, &m2);
    assert_int_equal(m.count, 4);
    float deepest = 1.0f;
    for (int i = 0; i < 8; ++i) {
        rb_float3 v = rb_xform_point(a.xf, rb_f3((i & 1) ? 0.5f : -0.5f, (i & 2) ? 0.05f : -0.05f, (i & 4) ? 0.5f : -0.5f));
        deepest = rb_minf(deepest, v.y);
    }
    float kept_deepest = 1.0f;
    for (int i = 0; i < 4; ++i) {
        kept_deepest = rb_minf(kept_deepest, m.points[i].separation);
        assert_int_equal(m2.points[i].id, m.points[i].id);
        assert_true(m.points[i].separation < 0.3f);
        for (int j = 0; j < i; ++j)
            assert_true(m.points[i].id != m.points[j].id);
    }
    assert_float_equal(kept_deepest, deepest, 1e-6f);
}

static void test_thin_plate_lying_flat_keeps_its_four_bottom_corners(void **state)
{
    (void)state;
    // a 1 x 0.1 x 1 plate, flat, 1 cm above the ground, margin 0.3 m > its thickness: all eight
    // vertices are candidates. The support is the bottom face, so the four kept points must be the
    // bottom corners (ids with bit 1 clear: 0, 1, 4, 5) — a top vertex in their place would leave a
    // triangle with the centre of mass on its edge. Tilted by 1 degree it still keeps the bottom face.
    for (int tilt = 0; tilt < 2; ++tilt) {
        rb_float4 q = tilt ? rb_quat_axis_angle(rb_f3(1.0f, 0.0f, 0.0f), 0.0174533f) : rb_quat_identity();
        rb_geom a = box_at(rb_f3(0.0f, 0.06f, 0.0f), q, rb_f3(0.5f, 0.05f, 0.5f));
        rb_geom b = ground();
        rb_manifold m = {0};
        rb_collide_box_plane(&a, &b, 0.3f, &m);
        assert_int_equal(m.count, 4);
        for (int i = 0; i < 4; ++i)
            assert_int_equal(m.points[i].id & 2u, 0u);
    }
}

static void test_contact_moves_with_a_rigidly_moved_configuration(void **state)
{
    (void)state;
    // a resting box (four points) and a box on its edge (two points), each carried by 50 motions
    rng_state = 37u;
    rb_geom b = ground();
    rb_geom boxes[2] = {box_at(rb_f3(0.3f, 0.45f, -0.2f), rot(0.0f, 1.0f, 0.0f, 20.0f), rb_f3(1.0f, 0.5f, 0.7f)),
                        box_at(rb_f3(0.0f, 0.7f, 0.0f), rot(0.0f, 0.0f, 1.0f, 45.0f), rb_f3(0.5f, 0.5f, 0.5f))};
    for (int k = 0; k < 2; ++k) {
        rb_manifold m0 = {0};
        rb_collide_box_plane(&boxes[k], &b, 0.1f, &m0);
        assert_int_equal(m0.count, 4 - 2 * k);
        for (int i = 0; i < 50; ++i) {
            rb_xform motion = random_motion();
            rb_geom am = moved(boxes[k], motion), bm = moved(b, motion);
            rb_manifold m1 = {0};
            rb_collide_box_plane(&am, &bm, 0.1f, &m1);
            assert_manifold_moved(&m0, &m1, motion, 5e-5f);
        }
    }
}

static void test_vertex_ids_are_stable_under_tiny_perturbations(void **state)
{
    (void)state;
    // a box resting flat, jittered by 1e-4 in position and attitude: always the bottom four, 0 1 4 5
    rng_state = 43u;
    rb_geom b = ground();
    for (int i = 0; i < 100; ++i) {
        rb_float4 q = rb_quat_axis_angle(random_vec(-1.0f, 1.0f), frand(-1e-4f, 1e-4f));
        rb_geom a = box_at(rb_f3(frand(-1e-4f, 1e-4f), 0.49f + frand(-1e-4f, 1e-4f), frand(-1e-4f, 1e-4f)), q, rb_f3(1.0f, 0.5f, 1.0f));
        rb_manifold m = {0};
        rb_collide_box_plane(&a, &b, 0.05f, &m);
        assert_int_equal(m.count, 4);
        assert_int_equal(m.points[0].id, 0);
        assert_int_equal(m.points[1].id, 1);
        assert_int_equal(m.points[2].id, 4);
        assert_int_equal(m.points[3].id, 5);
    }
}

// ---- fuzz ----

static void test_random_boxes_and_planes_agree_with_brute_force_distance(void **state)
{
    (void)state;
    // 2000 seeded pairs (one in eight resting almost flat); the brute force samples the box surface on
    // a grid that includes its vertices, so it is exact
    rng_state = 555u;
    const float margin = 0.05f;
    int contacts = 0, four = 0;
    for (int i = 0; i < 2000; ++i) {
        rb_float3 h = random_vec(0.05f, 1.0f);
        rb_float4 q = i % 8 == 0 ? rb_quat_axis_angle(random_vec(-1.0f, 1.0f), frand(0.0f, 1e-3f)) : random_rotation();
        rb_geom a = box_at(random_vec(-3.0f, 3.0f), q, h);
        rb_float3 n = i % 8 == 0 ? rb_f3(0.0f, 1.0f, 0.0f) : rb_normalize(random_vec(-1.0f, 1.0f));
        float extent = fabsf(rb_dot(n, rb_rotate(q, rb_f3(h.x, 0.0f, 0.0f)))) + fabsf(rb_dot(n, rb_rotate(q, rb_f3(0.0f, h.y, 0.0f)))) +
                       fabsf(rb_dot(n, rb_rotate(q, rb_f3(0.0f, 0.0f, h.z))));
        float height = extent + frand(-1.5f, 0.3f);  // of the centre above the plane
        rb_geom b = plane_of(n, rb_dot(n, a.xf.p) - height);
        rb_manifold m = {0};
        rb_collide_box_plane(&a, &b, margin, &m);
        contacts += check_manifold(&a, &b, margin, &m, brute_plane_distance(&a, &b), 1e-5, 1e-5, 4);
        four += m.count == 4;
    }
    assert_true(contacts > 1000);
    assert_true(four > 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_resting_flat_gives_its_four_bottom_vertices),
        cmocka_unit_test(test_box_balanced_on_an_edge_gives_its_two_edge_vertices),
        cmocka_unit_test(test_box_on_a_corner_gives_one_point),
        cmocka_unit_test(test_box_within_the_margin_gives_speculative_points_and_none_beyond),
        cmocka_unit_test(test_ceiling_plane_touches_the_top_vertices_with_an_upward_normal),
        cmocka_unit_test(test_box_sunk_below_the_plane_keeps_four_points_including_the_deepest),
        cmocka_unit_test(test_tilted_thin_plate_with_large_margin_gives_four_face_points_including_the_deepest),
        cmocka_unit_test(test_thin_plate_lying_flat_keeps_its_four_bottom_corners),
        cmocka_unit_test(test_contact_moves_with_a_rigidly_moved_configuration),
        cmocka_unit_test(test_vertex_ids_are_stable_under_tiny_perturbations),
        cmocka_unit_test(test_random_boxes_and_planes_agree_with_brute_force_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
