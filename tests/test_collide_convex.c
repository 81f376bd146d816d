// Convex narrow phase and ray casts: core/kernels/collide_convex*.h, collide_{sphere,capsule}_convex.h,
// the convex part of raycast.h and the dispatch of collide.h. Hulls come from core/hull_build.c.
#include <stdio.h>

#include "hull_build.h"
#include "kernels/collide.h"
#include "kernels/raycast.h"

#include "collide_test_util.h"

#define MARGIN 0.02f

// ---- the hull pool: the unit cube at offset 0, the tests' hulls after it ----

enum { POOL_SIZE = 60000 };
static rb_float4 pool[POOL_SIZE];
static int pool_used;

static int pool_add(const rb_hull_mesh *m)
{
    int off = pool_used, size = rb_hull_record_size(m);
    assert_true(off + size <= POOL_SIZE);
    rb_hull_write_record(m, pool + off);
    pool_used += size;
    return off;
}

static int setup(void **state)
{
    (void)state;
    rb_hull_mesh m;
    rb_hull_unit_cube(&m);
    pool_used = 0;
    pool_add(&m);
    return 0;
}

static int hull_of(const rb_float3 *pts, int n)
{
    rb_hull_mesh m;
    char why[256];
    if (!rb_hull_build(pts, n, 1e-5f, RB_HULL_MAX_VERTICES, &m, why, sizeof why))
        fail_msg("hull: %s", why);
    return pool_add(&m);
}

// Tetrahedron standing on the face y = 0 (an equilateral triangle of circumradius 1) with its apex at
// (0, 1.5, 0).
static int tetrahedron(void)
{
    const rb_float3 p[4] = {{1.0f, 0.0f, 0.0f}, {-0.5f, 0.0f, 0.8660254f}, {-0.5f, 0.0f, -0.8660254f}, {0.0f, 1.5f, 0.0f}};
    return hull_of(p, 4);
}

// Prism of a regular n-gon of circumradius r in xz, from y = -hy to y = +hy.
static int prism(int n, float r, float hy)
{
    rb_float3 p[2 * RB_HULL_MAX_VERTICES];
    for (int i = 0; i < n; ++i) {
        float a = 2.0f * RB_PI * (float)i / (float)n;
        p[2 * i] = rb_f3(r * rb_cosf(a), -hy, r * rb_sinf(a));
        p[2 * i + 1] = rb_f3(r * rb_cosf(a), hy, r * rb_sinf(a));
    }
    return hull_of(p, 2 * n);
}

// Hull of n random points on an ellipsoid with random semi-axes in [lo, hi].
static int random_hull(int n, float lo, float hi)
{
    rb_float3 axes = random_vec(lo, hi), p[RB_HULL_MAX_VERTICES];
    for (int i = 0; i < n; ++i) {
        rb_float3 u;
        do
            u = random_vec(-1.0f, 1.0f);
        while (rb_len_sq(u) > 1.0f || rb_len_sq(u) < 0.01f);
        p[i] = rb_mul(rb_normalize(u), axes);
    }
    return hull_of(p, n);
}

static rb_geom convex_at(int offset, rb_float3 p, rb_float4 q, float radius)
{
    float reach = pool[offset + 1].w + radius;
    return rb_geom_make_pooled(RB_GEOM_CONVEX, rb_xform_make(p, q), rb_f4(radius, (float)offset, reach, 0.0f), pool);
}

static rb_geom pooled_box(rb_float3 p, rb_float4 q, rb_float3 h)
{
    return rb_geom_make_pooled(RB_GEOM_BOX, rb_xform_make(p, q), rb_f4(h.x, h.y, h.z, 0.0f), pool);
}

static rb_manifold collide(rb_geom a, rb_geom b)
{
    rb_manifold m;
    memset(&m, 0xab, sizeof m);
    rb_collide(&a, &b, MARGIN, &m);
    return m;
}

// ---- reference geometry in double: a hull's vertices, face normals and edges at its pose ----

typedef struct dhull {
    int nv, nf, ne;
    dvec v[RB_HULL_MAX_VERTICES];
    dvec n[RB_HULL_MAX_FACES];
    double d[RB_HULL_MAX_FACES];
    int e0[RB_CX_MAX_EDGES], e1[RB_CX_MAX_EDGES];
} dhull;

static dvec dadd(dvec a, dvec b) { return dv(a.x + b.x, a.y + b.y, a.z + b.z); }
static dvec dscale(dvec a, double s) { return dv(a.x * s, a.y * s, a.z * s); }

static void dhull_of(const rb_geom *g, dhull *out)
{
    rb_hull_view h = g->hull;
    dvec p = dv_from(g->xf.p);
    out->nv = rb_hull_vertex_count(h);
    out->nf = rb_hull_face_count(h);
    out->ne = rb_hull_half_edge_count(h) / 2;
    for (int i = 0; i < out->nv; ++i)
        out->v[i] = dadd(drotate(g->xf.q, dv_from(rb_hull_vertex(h, i))), p);
    for (int f = 0; f < out->nf; ++f) {
        rb_float4 pl = rb_hull_plane(h, f);
        out->n[f] = drotate(g->xf.q, dv_from(rb_xyz(pl)));
        out->d[f] = (double)pl.w + ddot(out->n[f], p);
    }
    for (int k = 0; k < out->ne; ++k) {
        out->e0[k] = rb_hull_edge_origin(h, 2 * k);
        out->e1[k] = rb_hull_edge_origin(h, 2 * k + 1);
    }
}

static double dsupport(const dhull *h, dvec u)
{
    double s = -1e300;
    for (int i = 0; i < h->nv; ++i) {
        double d = u.x * h->v[i].x + u.y * h->v[i].y + u.z * h->v[i].z;
        s = d > s ? d : s;
    }
    return s;
}

// Gap between a and b along u: min over b of u . x - max over a of u . x.
static double dgap(const dhull *a, const dhull *b, dvec u) { return -dsupport(b, dscale(u, -1.0)) - dsupport(a, u); }

// The separating-axis search without pruning: every face normal of both hulls and every cross product
// of an edge of a with an edge of b, both ways. The largest gap: < 0 the least penetration (an axis
// of least penetration is a face normal of the Minkowski difference, all of which are here), > 0 a lower
// bound of the distance.
static double brute_sat(const dhull *a, const dhull *b)
{
    double best = -1e300;
    for (int f = 0; f < a->nf; ++f)
        best = fmax(best, dgap(a, b, a->n[f]));
    for (int f = 0; f < b->nf; ++f)
        best = fmax(best, dgap(a, b, dscale(b->n[f], -1.0)));
    for (int i = 0; i < a->ne; ++i) {
        dvec e1 = dsub(a->v[a->e1[i]], a->v[a->e0[i]]);
        for (int j = 0; j < b->ne; ++j) {
            dvec e2 = dsub(b->v[b->e1[j]], b->v[b->e0[j]]);
            dvec c = dcross(e1, e2);
            double l = dlen(c);
            if (!(l > 1e-9 * dlen(e1) * dlen(e2)))
                continue;
            c = dscale(c, 1.0 / l);
            best = fmax(best, fmax(dgap(a, b, c), dgap(a, b, dscale(c, -1.0))));
        }
    }
    return best;
}

// Signed distance bound of x to a hull: the largest plane distance (exact inside, a lower bound outside).
static double dplane_dist(const dhull *h, dvec x)
{
    double s = -1e300;
    for (int f = 0; f < h->nf; ++f)
        s = fmax(s, ddot(h->n[f], x) - h->d[f]);
    return s;
}

// The kernel's separating-axis test of a against b with the given reach (RB_FLT_MAX: no early out, no
// edge culling). Returns 0 if it ended early; else 1, the largest separation in *sep and the world axis
// that gives it in *axis.
static int kernel_sat_reach(const rb_geom *a, const rb_geom *b, float reach, float *sep, dvec *axis)
{
    static rb_cx_hull ha, hb;
    rb_cx_sat q = {0};
    rb_float3 d = rb_inv_rotate(a->xf.q, rb_sub(b->xf.p, a->xf.p));
    rb_mat3 r = rb_mat3_from_quat(rb_quat_mul(rb_quat_conj(a->xf.q), b->xf.q));
    rb_cx_hull_load(a->hull, 1, r, d, &ha);
    rb_cx_hull_load(b->hull, 0, r, d, &hb);
    if (!rb_cx_sat_query(&ha, &hb, reach, &q))
        return 0;
    float best = q.sep_a;
    rb_float3 n = rb_cx_normal(&ha, q.face_a);
    if (q.sep_b > best) {
        best = q.sep_b;
        n = rb_neg(rb_cx_normal(&hb, q.face_b));
    }
    if (q.edge_a >= 0 && q.sep_e > best) {
        best = q.sep_e;
        n = q.axis_e;
    }
    *sep = best;
    *axis = drotate(a->xf.q, dv_from(n));
    return 1;
}

static float kernel_sat(const rb_geom *a, const rb_geom *b, dvec *axis)
{
    float sep = 0.0f;
    assert_int_equal(kernel_sat_reach(a, b, RB_FLT_MAX, &sep, axis), 1);
    return sep;
}

// One of the test shapes: a random 12-point hull (most), a box as the unit cube at random half extents, a
// tetrahedron, a flat hexagonal prism or a 24-gon prism.
typedef struct shape_set {
    int hulls[32];
    int count;
    int tetra, hexa, disc;
} shape_set;

static void make_shape_set(shape_set *s)
{
    s->count = 32;
    for (int i = 0; i < s->count; ++i)
        s->hulls[i] = random_hull(12, 0.2f, 0.6f);
    s->tetra = tetrahedron();
    s->hexa = prism(6, 0.5f, 0.1f);
    s->disc = prism(24, 0.5f, 0.15f);
}

static rb_geom random_shape(const shape_set *s, rb_float3 p, rb_float4 q)
{
    float pick = frand(0.0f, 1.0f);
    if (pick < 0.15f)
        return pooled_box(p, q, random_vec(0.1f, 0.6f));
    if (pick < 0.2f)
        return convex_at(s->tetra, p, q, 0.0f);
    if (pick < 0.25f)
        return convex_at(s->hexa, p, q, 0.0f);
    if (pick < 0.3f)
        return convex_at(s->disc, p, q, 0.0f);
    return convex_at(s->hulls[(int)frand(0.0f, 31.999f)], p, q, 0.0f);
}

static float shape_reach(const rb_geom *g) { return rb_hull_bounding_radius(g->hull); }

static int kernel_sat_reach(const rb_geom *a, const rb_geom *b, float reach, float *sep, dvec *axis);

// B placed along a random direction u from A: where they would just touch (bisection on the kernel's
// separating-axis test with no reach, whose sign is all that counts here), then moved along u by -15 cm .. +`gap` (not past A's
// centre): overlapping by up to ~15 cm or up to `gap` apart. *sat is the brute-force search's value.
static void random_pair(const shape_set *s, float gap, rb_geom *a, rb_geom *b, dhull *da, dhull *db, double *sat)
{
    *a = random_shape(s, random_vec(-2.0f, 2.0f), random_rotation_often_aligned());
    *b = random_shape(s, rb_f3(0.0f, 0.0f, 0.0f), random_rotation_often_aligned());
    dhull_of(a, da);
    rb_float3 u;
    do
        u = random_vec(-1.0f, 1.0f);
    while (rb_len_sq(u) > 1.0f || rb_len_sq(u) < 0.01f);
    u = rb_normalize(u);
    float lo = 0.0f, hi = shape_reach(a) + shape_reach(b);
    for (int it = 0; it < 20; ++it) {
        float mid = 0.5f * (lo + hi), sep;
        dvec axis;
        b->xf.p = rb_mad(a->xf.p, mid, u);
        if (!kernel_sat_reach(a, b, 0.0f, &sep, &axis) || sep > 0.0f)
            hi = mid;
        else
            lo = mid;
    }
    b->xf.p = rb_mad(a->xf.p, rb_maxf(0.0f, hi + frand(-0.15f, gap)), u);
    dhull_of(b, db);
    *sat = brute_sat(da, db);
}

// ---- the separating-axis test ----

static void test_sat_agrees_with_brute_force_axis_search_on_random_pairs(void **state)
{
    (void)state;
    // 10,000 pairs, overlapping by up to ~15 cm or up to 5 cm apart. Overlapping: the same least
    // penetration (every face of the Minkowski difference is among the pruned axes); apart: the same
    // verdict, and no larger a bound than the unpruned search's. The reported axis must give the
    // separation it claims. Float against double on shapes ~1 m from the origin: 2e-5 m. Then with the
    // narrow phase's reach (the margin), where only the edges near the other hull are paired: the same
    // least penetration when overlapping, an early end only when the pair is apart by more than the reach.
    rng_state = 20240601u;
    shape_set s;
    make_shape_set(&s);
    dhull da, db;
    double worst = 0.0;
    int overlapping = 0;
    for (int it = 0; it < 10000; ++it) {
        rb_geom a, b;
        double sat;
        random_pair(&s, 0.05f, &a, &b, &da, &db, &sat);
        dvec axis;
        float ks = kernel_sat(&a, &b, &axis);
        assert_float_equal(dgap(&da, &db, axis), (double)ks, 2e-5);
        if (sat < -2e-5) {
            assert_true(ks < 0.0f);
            assert_float_equal((double)ks, sat, 2e-5);
            worst = fmax(worst, fabs((double)ks - sat));
            ++overlapping;
        } else if (sat > 2e-5) {
            assert_true(ks > 0.0f);
            assert_true((double)ks <= sat + 2e-5);
        }
        float kr = 0.0f;
        if (!kernel_sat_reach(&a, &b, MARGIN, &kr, &axis)) {
            assert_true(sat > (double)MARGIN - 2e-5);
            continue;
        }
        assert_float_equal(dgap(&da, &db, axis), (double)kr, 2e-5);
        assert_true((double)kr <= sat + 2e-5);
        if (sat < -2e-5)
            assert_float_equal((double)kr, sat, 2e-5);
    }
    print_message("    %d overlapping pairs, largest difference %.2g m\n", overlapping, worst);
    assert_true(overlapping > 5000 && overlapping < 9000);
}

static void test_random_pairs_give_at_most_four_points_midway_and_a_contact_when_overlapping(void **state)
{
    (void)state;
    // Overlapping pairs must touch; pairs whose unpruned bound exceeds the margin must not. Every point:
    // separation >= the least penetration less the face/edge tolerances (2.5 mm + 5% of the chosen
    // axis's, ~6% of the least), p - n sep / 2 in
    // or on A and p + n sep / 2 in or on B (plane distances in double, 1e-4 m) when they overlap.
    rng_state = 777u;
    shape_set s;
    make_shape_set(&s);
    dhull da, db;
    for (int it = 0; it < 4000; ++it) {
        rb_geom a, b;
        double sat;
        random_pair(&s, 0.05f, &a, &b, &da, &db, &sat);
        rb_manifold m = collide(a, b);
        assert_true(m.count >= 0 && m.count <= 4);
        assert_float_equal(rb_len(m.normal), 1.0f, 1e-5f);
        if (sat < -1e-4)
            assert_true(m.count >= 1);
        if (sat > (double)MARGIN + 1e-4)
            assert_int_equal(m.count, 0);
        assert_ids_unique(m);
        dvec n = dv_from(m.normal);
        for (int i = 0; i < m.count; ++i) {
            rb_manifold_point p = m.points[i];
            assert_true(p.separation < MARGIN);
            assert_true((double)p.separation >= sat - 0.0025 - 0.06 * fabs(sat) - 1e-4 || sat > 0.0);
            double h = 0.5 * (double)p.separation;
            // apart, an edge pair's point is midway between its closest points, which need not lie
            // along the normal: only within the gap of both shapes
            double place = sat < 0.0 ? 1e-4 : fabs(h) + 1e-4;
            assert_true(dplane_dist(&da, along(p.point, n, -h)) <= place);
            assert_true(dplane_dist(&db, along(p.point, n, h)) <= place);
        }
    }
}

// ---- the unit cube as a hull against the box routines ----

// Every point of m0 is in m1 (same place and separation), and as many.
static void assert_same_points(rb_manifold m0, rb_manifold m1, float tol)
{
    assert_int_equal(m1.count, m0.count);
    for (int i = 0; i < m0.count; ++i) {
        int k = find_point(m1, m0.points[i].point, tol);
        assert_float_equal(m1.points[k].separation, m0.points[i].separation, tol);
    }
}

static void test_unit_cube_hull_collides_with_a_box_as_box_box_does(void **state)
{
    (void)state;
    // Box A (random half extents) and the unit cube (half extent 1) as a convex shape B, overlapping at
    // random poses: rb_collide takes the box as the pool's unit cube and runs convex-convex; box-box with
    // B as a box of half extents 1 must give the same normal, separations and points (as a set; the ids
    // are numbered differently) where every point touches. The same axes, tolerances and clipping: only
    // rounding differs (1e-4).
    rng_state = 99u;
    int compared = 0;
    for (int it = 0; it < 3000; ++it) {
        rb_float3 h = random_vec(0.2f, 1.0f);
        rb_geom a = pooled_box(random_vec(-1.0f, 1.0f), random_rotation(), h);
        rb_geom b = convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), random_rotation(), 0.0f);
        b.xf.p = rb_add(a.xf.p, rb_scale(rb_normalize(random_vec(-1.0f, 1.0f)), frand(0.5f, rb_len(h) + 1.0f)));
        rb_geom bb = box_at(b.xf.p, b.xf.q, rb_f3(1.0f, 1.0f, 1.0f));
        rb_manifold ref;
        rb_collide_box_box(&a, &bb, MARGIN, &ref);
        if (ref.count == 0 || ref.points[0].separation > 0.0f)
            continue; // apart: box-box's unpruned edge axes may bound the gap differently
        rb_manifold m = collide(a, b);
        assert_vec_equal(m.normal, ref.normal.x, ref.normal.y, ref.normal.z, 1e-5f);
        // the deepest point is the same; the whole set where box-box's points all touch (within
        // RB_CX_CONTACT_BAND of its deepest): otherwise the convex routines keep the touching candidates
        // before spreading by area (rb_cx_keep_touching) and box-box may keep a higher one
        float deep_ref = RB_FLT_MAX, deep_m = RB_FLT_MAX, high_ref = -RB_FLT_MAX;
        for (int i = 0; i < ref.count; ++i)
            deep_ref = fminf(deep_ref, ref.points[i].separation), high_ref = fmaxf(high_ref, ref.points[i].separation);
        for (int i = 0; i < m.count; ++i)
            deep_m = fminf(deep_m, m.points[i].separation);
        assert_float_equal(deep_m, deep_ref, 1e-4f);
        if (high_ref <= fmaxf(deep_ref, 0.0f) + RB_CX_CONTACT_BAND) {
            assert_same_points(ref, m, 1e-4f);
            ++compared;
        }
    }
    assert_true(compared > 1000);
}

static void test_unit_cube_hull_stacked_on_a_box_gives_the_box_box_square(void **state)
{
    (void)state;
    // A: 4 x 1 x 4 slab (box), B: the unit-cube hull centred (0.25, 1.4921875, -0.5): it sinks 2^-7 into
    // A. Box-box gives B's bottom corners x in {-0.75, 1.25}, z in {-1.5, 0.5} at y = 0.5 - 2^-8.
    rb_geom a = pooled_box(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(2.0f, 0.5f, 2.0f));
    rb_geom b = convex_at(0, rb_f3(0.25f, 1.4921875f, -0.5f), rb_quat_identity(), 0.0f);
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 4);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 0.0f);
    const float xs[2] = {-0.75f, 1.25f}, zs[2] = {-1.5f, 0.5f};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            int k = find_point(m, rb_f3(xs[i], 0.49609375f, zs[j]), 1e-6f);
            assert_float_equal(m.points[k].separation, -0.0078125f, 1e-6f);
        }
    rb_geom bb = box_at(b.xf.p, b.xf.q, rb_f3(1.0f, 1.0f, 1.0f));
    rb_manifold ref;
    rb_collide_box_box(&a, &bb, MARGIN, &ref);
    assert_same_points(ref, m, 1e-6f);
}

static void test_unit_cube_hull_collides_with_a_plane_as_box_plane_does(void **state)
{
    (void)state;
    // The unit-cube hull at random orientations, its lowest vertex between 5 cm deep and 1.5 cm above a
    // random plane: the vertices within the margin are those of box-plane's incident face (any other is
    // at least 2 cos 54.7 = 1.15 higher), so the same normal -n, points and separations.
    rng_state = 5u;
    for (int it = 0; it < 2000; ++it) {
        rb_float3 n = rb_normalize(random_vec(-1.0f, 1.0f));
        rb_geom plane = plane_of(n, frand(-1.0f, 1.0f));
        rb_float4 q = random_rotation_often_aligned();
        rb_geom cube = box_at(rb_f3(0.0f, 0.0f, 0.0f), q, rb_f3(1.0f, 1.0f, 1.0f));
        // lowest vertex: centre height less |R^T n| . (1, 1, 1)
        float low = rb_dot(rb_abs3(rb_inv_rotate(q, n)), rb_f3(1.0f, 1.0f, 1.0f));
        rb_float3 p = rb_scale(n, plane.params.w + low + frand(-0.05f, 0.015f));
        p = rb_add(p, rb_cross(n, random_vec(-1.0f, 1.0f)));
        cube.xf.p = p;
        rb_geom hull = convex_at(0, p, q, 0.0f);
        rb_manifold ref;
        rb_collide_box_plane(&cube, &plane, MARGIN, &ref);
        rb_manifold m = collide(hull, plane);
        assert_vec_equal(m.normal, ref.normal.x, ref.normal.y, ref.normal.z, 0.0f);
        assert_same_points(ref, m, 1e-5f);
    }
}

// ---- sphere-convex ----

static void test_sphere_over_a_hull_face_touches_the_face(void **state)
{
    (void)state;
    // Unit-cube hull at the origin, sphere r = 0.55 at (0.2, 1.5, -0.3): distance to the +y face 0.5,
    // separation 0.5 - 0.55 = -0.05, normal (sphere to hull) -y, point midway between (0.2, 0.95, -0.3)
    // and (0.2, 1, -0.3).
    rb_manifold m = collide(sphere_at(rb_f3(0.2f, 1.5f, -0.3f), 0.55f), convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f));
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.05f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.2f, 0.975f, -0.3f, 1e-6f);
}

static void test_sphere_beside_a_hull_edge_touches_the_edge(void **state)
{
    (void)state;
    // Centre (1.3, 1.4, 0.2): nearest the edge x = y = 1, at (1, 1, 0.2), distance |(0.3, 0.4)| = 0.5;
    // r = 0.6: separation -0.1, normal -(0.6, 0.8, 0). A hull rounded by 0.05: separation -0.15.
    rb_geom s = sphere_at(rb_f3(1.3f, 1.4f, 0.2f), 0.6f);
    rb_manifold m = collide(s, convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f));
    assert_int_equal(m.count, 1);
    assert_normal(m, -0.6f, -0.8f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.1f, 1e-6f);
    // midway between the sphere's surface (1.3, 1.4) - 0.6 (0.6, 0.8) = (0.94, 0.92) and (1, 1)
    assert_vec_equal(m.points[0].point, 0.97f, 0.96f, 0.2f, 1e-6f);
    m = collide(s, convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.05f));
    assert_float_equal(m.points[0].separation, -0.15f, 1e-6f);
    // the rounded surface at (1, 1) + 0.05 (0.6, 0.8) = (1.03, 1.04): midway (0.985, 0.98)
    assert_vec_equal(m.points[0].point, 0.985f, 0.98f, 0.2f, 1e-6f);
}

static void test_sphere_beyond_a_hull_vertex_touches_the_vertex(void **state)
{
    (void)state;
    // Centre (1.2, 1.2, 1.2), nearest the vertex (1, 1, 1): distance 0.2 sqrt 3 = 0.34641; r = 0.4:
    // separation -0.05359, normal -(1, 1, 1) / sqrt 3. The hull turned and moved: the same, carried along.
    rb_manifold m = collide(sphere_at(rb_f3(1.2f, 1.2f, 1.2f), 0.4f), convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f));
    assert_int_equal(m.count, 1);
    assert_normal(m, -0.57735027f, -0.57735027f, -0.57735027f, 1e-6f);
    assert_float_equal(m.points[0].separation, 0.34641016f - 0.4f, 1e-6f);
    rb_xform motion = rb_xform_make(rb_f3(1.0f, 2.0f, 3.0f), rot(0.0f, 0.0f, 1.0f, 30.0f));
    rb_geom s = sphere_at(rb_xform_point(motion, rb_f3(1.2f, 1.2f, 1.2f)), 0.4f);
    rb_manifold m1 = collide(s, convex_at(0, motion.p, motion.q, 0.0f));
    assert_manifold_moved(&m, &m1, motion, 2e-6f);
}

static void test_sphere_centre_inside_a_hull_leaves_through_the_nearest_face(void **state)
{
    (void)state;
    // Centre (0.1, 0.7, 0.2) inside the unit cube: depths 0.9 (x), 0.3 (y), 0.8 (z); the +y face is
    // nearest: distance -0.3, r = 0.2, separation -0.5, normal -y; midway between the sphere's surface
    // y = 0.7 - 0.2 and the face y = 1: 0.75.
    rb_manifold m = collide(sphere_at(rb_f3(0.1f, 0.7f, 0.2f), 0.2f), convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f));
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -0.5f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.1f, 0.75f, 0.2f, 1e-6f);
}

static void test_sphere_convex_matches_sphere_box_on_random_spheres(void **state)
{
    (void)state;
    // The unit-cube hull and the same cube as a box: sphere-box's closed form gives the same distance
    // (face, edge, vertex or inside) and normal.
    rng_state = 31u;
    for (int it = 0; it < 5000; ++it) {
        rb_float4 q = random_rotation();
        rb_float3 c = random_vec(-2.0f, 2.0f);
        rb_geom s = sphere_at(c, frand(0.05f, 1.0f));
        rb_geom box = box_at(rb_f3(0.1f, -0.2f, 0.3f), q, rb_f3(1.0f, 1.0f, 1.0f));
        rb_manifold ref = collide(s, box), m = collide(s, convex_at(0, box.xf.p, q, 0.0f));
        assert_int_equal(m.count, ref.count);
        if (ref.count == 0)
            continue;
        assert_float_equal(m.points[0].separation, ref.points[0].separation, 1e-5f);
        assert_vec_equal(m.normal, ref.normal.x, ref.normal.y, ref.normal.z, 1e-4f);
        assert_vec_equal(m.points[0].point, ref.points[0].point.x, ref.points[0].point.y, ref.points[0].point.z, 1e-5f);
    }
}

// ---- capsule-convex ----

static void test_capsule_lying_flat_on_a_hull_face_gives_two_points_at_its_depth(void **state)
{
    (void)state;
    // Hexagonal prism (circumradius 1, top face y = 0.25); capsule r = 0.1, half length 0.4, along x
    // (its y axis turned 90 degrees about z), centre (0.1, 0.34, 0.05): it sinks 0.25 + 0.1 - 0.34 = 0.01.
    // Two points under its segment's ends x = 0.1 -+ 0.4, midway at y = 0.25 - 0.005; normal -y.
    int hexa = prism(6, 1.0f, 0.25f);
    rb_geom cap = capsule_at(rb_f3(0.1f, 0.34f, 0.05f), rot(0.0f, 0.0f, 1.0f, 90.0f), 0.4f, 0.1f);
    rb_manifold m = collide(cap, convex_at(hexa, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f));
    assert_int_equal(m.count, 2);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 1e-6f);
    for (int i = 0; i < 2; ++i)
        assert_float_equal(m.points[i].separation, -0.01f, 1e-6f);
    find_point(m, rb_f3(-0.3f, 0.245f, 0.05f), 1e-6f);
    find_point(m, rb_f3(0.5f, 0.245f, 0.05f), 1e-6f);
    assert_ids_unique(m);
}

static void test_capsule_across_a_hull_edge_touches_the_edge_at_one_point(void **state)
{
    (void)state;
    // Unit-cube hull; capsule r = 0.12, half length 0.5, axis (1, -1, 0) / sqrt 2, centre 0.1 out from
    // the edge x = y = 1 along (1, 1, 0) / sqrt 2: distance 0.1 to the edge, separation -0.02, normal
    // -(1, 1, 0) / sqrt 2; the point midway between the capsule's surface (1 - 0.02 / sqrt 2 on x and y)
    // and the edge: x = y = 1 - 0.01 / sqrt 2.
    const float s2 = 0.70710678f;
    rb_geom cap = capsule_at(rb_f3(1.0f + 0.1f * s2, 1.0f + 0.1f * s2, 0.3f), rotation_between(rb_f3(0.0f, 1.0f, 0.0f), rb_f3(s2, -s2, 0.0f)), 0.5f, 0.12f);
    rb_manifold m = collide(cap, convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f));
    assert_int_equal(m.count, 1);
    assert_normal(m, -s2, -s2, 0.0f, 1e-5f);
    assert_float_equal(m.points[0].separation, -0.02f, 1e-5f);
    assert_vec_equal(m.points[0].point, 1.0f - 0.01f * s2, 1.0f - 0.01f * s2, 0.3f, 1e-5f);
}

static void test_capsule_parallel_to_a_hull_edge_touches_it_at_its_closest_point(void **state)
{
    (void)state;
    // Capsule along z (parallel to the edge x = y = 1: no cross-product axis), centre (1.06, 1.08, 0.1),
    // r = 0.12: distance |(0.06, 0.08)| = 0.1, separation -0.02, normal -(0.6, 0.8, 0).
    rb_geom cap = capsule_at(rb_f3(1.06f, 1.08f, 0.1f), rot(1.0f, 0.0f, 0.0f, 90.0f), 0.3f, 0.12f);
    rb_manifold m = collide(cap, convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f));
    assert_int_equal(m.count, 1);
    assert_normal(m, -0.6f, -0.8f, 0.0f, 1e-5f);
    assert_float_equal(m.points[0].separation, -0.02f, 1e-5f);
}

static void test_capsule_convex_matches_the_exact_distance_on_random_capsules(void **state)
{
    (void)state;
    // Capsules near the unit-cube hull, against the exact signed distance to the same cube as a box
    // (brute_signed_distance, sampled in double): a contact exactly when it is below the margin (1e-4
    // either side), at most 2 points; where the capsule's core is outside the cube (the usual contact,
    // only the radius overlaps) the deepest separation is the exact one, within the face contact's rim
    // guard of 0.5 mm (6e-4).
    rng_state = 4242u;
    int compared = 0;
    double worst_low = 0.0, worst_high = 0.0;
    for (int it = 0; it < 2000; ++it) {
        rb_float4 q = random_rotation();
        rb_geom cap = capsule_at(random_vec(-1.6f, 1.6f), random_rotation(), frand(0.05f, 0.6f), frand(0.05f, 0.4f));
        rb_geom box = box_at(rb_f3(0.0f, 0.0f, 0.0f), q, rb_f3(1.0f, 1.0f, 1.0f));
        rb_geom hull = convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), q, 0.0f);
        double sd = brute_signed_distance(&cap, &box);
        rb_manifold m = collide(cap, hull);
        assert_true(m.count <= 2);
        if (sd < -1e-4)
            assert_true(m.count >= 1);
        if (sd > (double)MARGIN + 1e-4)
            assert_int_equal(m.count, 0);
        if (m.count == 0 || sd < -(double)cap.params.y)
            continue;
        float deepest = m.points[0].separation;
        for (int i = 1; i < m.count; ++i)
            deepest = fminf(deepest, m.points[i].separation);
        // the cores apart: the exact closest points (face contacts within the rim guard's 0.5 mm)
        assert_float_equal((double)deepest, sd, 6e-4);
        worst_low = fmin(worst_low, (double)deepest - sd);
        worst_high = fmax(worst_high, (double)deepest - sd);
        ++compared;
    }
    print_message("    %d compared, reported - exact in [%.2g, %.2g] m\n", compared, worst_low, worst_high);
    assert_true(compared > 200);
}

// ---- convex-plane ----

static void test_tetrahedron_resting_on_a_face_gives_three_points(void **state)
{
    (void)state;
    // Tetrahedron with its base triangle on y = 0 moved down by 5 mm onto the plane y = 0: its three base
    // vertices, separation -0.005, points midway at y = -0.0025; normal (hull to plane) -y.
    int t = tetrahedron();
    rb_manifold m = collide(convex_at(t, rb_f3(0.0f, -0.005f, 0.0f), rb_quat_identity(), 0.0f), plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f));
    assert_int_equal(m.count, 3);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 0.0f);
    find_point(m, rb_f3(1.0f, -0.0025f, 0.0f), 1e-6f);
    find_point(m, rb_f3(-0.5f, -0.0025f, 0.8660254f), 1e-6f);
    find_point(m, rb_f3(-0.5f, -0.0025f, -0.8660254f), 1e-6f);
    for (int i = 0; i < 3; ++i)
        assert_float_equal(m.points[i].separation, -0.005f, 1e-6f);
    // rounded by 0.01: separation -0.015, midway between y = -0.015 and 0
    m = collide(convex_at(t, rb_f3(0.0f, -0.005f, 0.0f), rb_quat_identity(), 0.01f), plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f));
    assert_int_equal(m.count, 3);
    find_point(m, rb_f3(1.0f, -0.0075f, 0.0f), 1e-6f);
    assert_float_equal(m.points[0].separation, -0.015f, 1e-6f);
}

static void test_a_tilted_rock_keeps_its_penetrating_vertices_not_the_high_ones(void **state)
{
    (void)state;
    // A ring of 6 vertices (radius 0.2, every 60°) at heights -26, +15, -12, +13, -6, +18 mm, under an
    // apex: all 6 are within the 2 cm margin of the ground, 3 of them into it. The three penetrating
    // ones must be the manifold (a reduction by area alone kept the high ones at 180° and 300° and left
    // the -12 mm vertex without a row: rocks rested 2.6 cm into the ground).
    const float h[6] = {-0.026f, 0.015f, -0.012f, 0.013f, -0.006f, 0.018f};
    rb_float3 pts[7];
    for (int i = 0; i < 6; ++i) {
        float a = (float)i * 1.04719755f;
        pts[i] = rb_f3(0.2f * cosf(a), h[i], 0.2f * sinf(a));
    }
    pts[6] = rb_f3(0.0f, 0.3f, 0.0f);
    int rock = hull_of(pts, 7);
    rb_manifold m = collide(convex_at(rock, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f),
                            plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f));
    assert_int_equal(m.count, 3);
    for (int i = 0; i < 6; i += 2)
        find_point(m, rb_f3(pts[i].x, 0.5f * h[i], pts[i].z), 1e-6f);
}

static void test_many_sided_prism_on_a_plane_keeps_four_points(void **state)
{
    (void)state;
    // A 24-gon prism lying on its cap: 24 vertices within the margin, reduced to 4 in stages of 16.
    int disc = prism(24, 0.5f, 0.1f);
    rb_manifold m = collide(convex_at(disc, rb_f3(0.0f, 0.099f, 0.0f), rb_quat_identity(), 0.0f), plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f));
    assert_int_equal(m.count, 4);
    assert_ids_unique(m);
    for (int i = 0; i < 4; ++i)
        assert_float_equal(m.points[i].separation, -0.001f, 1e-6f);
}

// ---- rounded hulls ----

static void test_rounded_hulls_stacked_report_the_gap_of_their_rounded_surfaces(void **state)
{
    (void)state;
    // Two unit-cube hulls rounded by 0.05, B 2.08 above A: cores 0.08 apart, rounded surfaces overlap by
    // 0.02. Four points, separation -0.02, midway between y = 1.05 and 1.03: y = 1.04.
    rb_geom a = convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.05f);
    rb_geom b = convex_at(0, rb_f3(0.5f, 2.08f, 0.0f), rb_quat_identity(), 0.05f);
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 4);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 0.0f);
    for (int i = 0; i < 4; ++i) {
        assert_float_equal(m.points[i].separation, -0.02f, 1e-6f);
        assert_float_equal(m.points[i].point.y, 1.04f, 1e-6f);
    }
}

static int ray(rb_geom g, rb_float3 o, rb_float3 d, float *f, rb_float3 *n);

// ---- feature ids, order, counts ----

static void test_ids_stay_the_same_under_a_one_millimetre_slide(void **state)
{
    (void)state;
    // Resting contacts slid 1 mm along x keep their features: a cube hull half over the rim of a prism
    // (clipped points), a tetrahedron on a prism face, a tetrahedron on a plane, a capsule on a face, a
    // random hull on a box.
    rng_state = 8u;
    int hexa = prism(6, 1.0f, 0.25f), t = tetrahedron(), rh = random_hull(12, 0.3f, 0.5f);
    rb_geom base = convex_at(hexa, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f);
    rb_geom movers[5] = {
        convex_at(0, rb_f3(0.8f, 1.245f, 0.1f), rot(0.0f, 1.0f, 0.0f, 20.0f), 0.0f),
        convex_at(t, rb_f3(0.1f, 0.245f, 0.0f), rot(0.0f, 1.0f, 0.0f, 10.0f), 0.0f),
        convex_at(t, rb_f3(0.1f, -0.003f, 0.0f), rot(0.0f, 1.0f, 0.0f, 10.0f), 0.0f),
        capsule_at(rb_f3(0.1f, 0.34f, 0.05f), rot(0.0f, 0.0f, 1.0f, 90.0f), 0.4f, 0.1f),
        convex_at(rh, rb_f3(0.0f, 0.0f, 0.0f), rot(1.0f, 2.0f, 3.0f, 40.0f), 0.0f),
    };
    rb_geom bases[5] = {base, base, plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f), base,
                        pooled_box(rb_f3(0.0f, -1.0f, 0.0f), rb_quat_identity(), rb_f3(3.0f, 1.0f, 3.0f))};
    // the random hull: lowered until it sinks 2 mm into the box top y = 0
    dhull d;
    dhull_of(&movers[4], &d);
    movers[4].xf.p.y = (float)dsupport(&d, dv(0.0, -1.0, 0.0)) - 0.002f; // its lowest point at -0.002
    for (int k = 0; k < 5; ++k) {
        rb_manifold m0 = collide(movers[k], bases[k]);
        assert_true(m0.count >= 1);
        rb_geom slid = movers[k];
        slid.xf.p.x += 0.001f;
        rb_manifold m1 = collide(slid, bases[k]);
        assert_same_ids(m0, m1);
        if (bases[k].type != RB_GEOM_CONVEX) { // the pair in type order, whichever comes first
            m1 = collide(bases[k], slid);
            assert_same_ids(m0, m1);
        }
    }
}

static void test_normal_points_from_a_to_b_in_either_order(void **state)
{
    (void)state;
    // Shapes sinking 1 cm into the top face y = 0 of the unit-cube hull (centre (0, -1, 0)), one of each
    // type: rb_collide(hull, shape) points up, rb_collide(shape, hull) down; pairs that rb_collide puts
    // in type order are the same manifold turned around (same ids). The plane y = -1.99 under the cube:
    // its bottom face, normal from the plane up.
    rb_geom hull = convex_at(0, rb_f3(0.0f, -1.0f, 0.0f), rb_quat_identity(), 0.0f);
    rb_geom above[5] = {
        sphere_at(rb_f3(0.1f, 0.19f, 0.0f), 0.2f),
        capsule_at(rb_f3(0.1f, 0.49f, 0.0f), rot(0.0f, 0.0f, 1.0f, 5.0f), 0.4f, 0.1f),
        pooled_box(rb_f3(0.1f, 0.49f, 0.0f), rot(0.0f, 1.0f, 0.0f, 10.0f), rb_f3(0.5f, 0.5f, 0.5f)),
        convex_at(0, rb_f3(0.1f, 0.99f, 0.0f), rot(0.0f, 1.0f, 0.0f, 10.0f), 0.0f),
        convex_at(tetrahedron(), rb_f3(0.1f, -0.01f, 0.0f), rot(0.0f, 1.0f, 0.0f, 10.0f), 0.0f),
    };
    for (int k = 0; k < 5; ++k) {
        rb_manifold up = collide(hull, above[k]), down = collide(above[k], hull);
        assert_true(up.count >= 1 && down.count >= 1);
        assert_vec_equal(up.normal, 0.0f, 1.0f, 0.0f, 1e-6f);
        assert_vec_equal(down.normal, 0.0f, -1.0f, 0.0f, 1e-6f);
        if (above[k].type != RB_GEOM_CONVEX)
            assert_same_ids(up, down);
    }
    rb_geom below = plane_of(rb_f3(0.0f, 1.0f, 0.0f), -1.99f);
    rb_manifold m = collide(below, hull), n = collide(hull, below);
    assert_int_equal(m.count, 4);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 0.0f);
    assert_vec_equal(n.normal, 0.0f, -1.0f, 0.0f, 0.0f);
    assert_same_ids(m, n);
}

static void test_many_sided_faces_clipped_against_each_other_keep_at_most_four_points(void **state)
{
    (void)state;
    // 24-gon prisms stacked cap on cap, turned and shifted: clipping one 24-gon by another gives up to 48
    // candidates; the manifold keeps 4, spread over the overlap, all at the depth.
    rng_state = 3u;
    int disc = prism(24, 0.5f, 0.1f);
    for (int it = 0; it < 200; ++it) {
        rb_geom a = convex_at(disc, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f);
        rb_geom b = convex_at(disc, rb_f3(frand(-0.3f, 0.3f), 0.199f, frand(-0.3f, 0.3f)), rot(0.0f, 1.0f, 0.0f, frand(0.0f, 15.0f)), 0.0f);
        rb_manifold m = collide(a, b);
        assert_int_equal(m.count, 4);
        assert_ids_unique(m);
        assert_normal(m, 0.0f, 1.0f, 0.0f, 1e-6f);
        for (int i = 0; i < 4; ++i)
            assert_float_equal(m.points[i].separation, -0.001f, 1e-6f);
    }
}

static void test_shapes_without_a_pool_have_no_contact_with_a_hull(void **state)
{
    (void)state;
    // rb_geom_make leaves a box or a convex shape without its hull view: the convex routines cannot run
    // and report nothing (rather than read through a null record), and a ray misses.
    rb_geom hull = convex_at(0, rb_f3(0.0f, 1.9f, 0.0f), rb_quat_identity(), 0.0f);
    rb_geom bare = rb_geom_make(RB_GEOM_CONVEX, hull.xf, hull.params);
    assert_int_equal(collide(box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(1.0f, 1.0f, 1.0f)), hull).count, 0);
    assert_int_equal(collide(convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f), bare).count, 0);
    assert_int_equal(collide(sphere_at(rb_f3(0.0f, 1.9f, 0.0f), 0.5f), bare).count, 0);
    assert_int_equal(collide(capsule_at(rb_f3(0.0f, 1.9f, 0.0f), rb_quat_identity(), 0.5f, 0.5f), bare).count, 0);
    assert_int_equal(collide(bare, plane_of(rb_f3(0.0f, 1.0f, 0.0f), 2.0f)).count, 0);
    float f;
    rb_float3 n;
    assert_false(ray(bare, rb_f3(0.0f, 5.0f, 0.0f), rb_f3(0.0f, -10.0f, 0.0f), &f, &n));
}

// ---- ray casts ----

static int ray(rb_geom g, rb_float3 o, rb_float3 d, float *f, rb_float3 *n) { return rb_ray_geom(&g, o, d, f, n); }

static void test_ray_down_onto_a_hull_hits_its_top_face(void **state)
{
    (void)state;
    // Unit cube hull at the origin; from (0.3, 5, -0.2) by (0, -10, 0): the face y = 1 at 4 / 10.
    float f;
    rb_float3 n;
    rb_geom g = convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f);
    assert_true(ray(g, rb_f3(0.3f, 5.0f, -0.2f), rb_f3(0.0f, -10.0f, 0.0f), &f, &n));
    assert_float_equal(f, 0.4f, 1e-6f);
    assert_vec_equal(n, 0.0f, 1.0f, 0.0f, 0.0f);
}

static void test_ray_at_a_turned_hull_hits_the_face_it_enters(void **state)
{
    (void)state;
    // The unit cube turned 45 degrees about y, at (2, 0, 0): its faces facing -x have normals
    // (-1, 0, -+1) / sqrt 2, 1 from the centre. Along y = 0.5, z = 0.3 from x = -5 by (10, 0, 0): the plane
    // of (-1, 0, 1) / sqrt 2 at x = 2 + 0.3 - sqrt 2 = 0.885786 is entered last (the other at 0.285786):
    // fraction 5.885786 / 10.
    float f;
    rb_float3 n;
    rb_geom g = convex_at(0, rb_f3(2.0f, 0.0f, 0.0f), rot(0.0f, 1.0f, 0.0f, 45.0f), 0.0f);
    assert_true(ray(g, rb_f3(-5.0f, 0.5f, 0.3f), rb_f3(10.0f, 0.0f, 0.0f), &f, &n));
    assert_float_equal(f, 0.5885786f, 1e-6f);
    assert_vec_equal(n, -0.70710678f, 0.0f, 0.70710678f, 1e-6f);
}

static void test_ray_beside_or_short_of_a_hull_misses(void **state)
{
    (void)state;
    // Beside the cube (x = 1.01 > 1), short of it (reaches y = 1.01), away from it.
    float f = -1.0f;
    rb_float3 n;
    rb_geom g = convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f);
    assert_false(ray(g, rb_f3(1.01f, 5.0f, 0.0f), rb_f3(0.0f, -10.0f, 0.0f), &f, &n));
    assert_false(ray(g, rb_f3(0.0f, 5.0f, 0.0f), rb_f3(0.0f, -3.99f, 0.0f), &f, &n));
    assert_false(ray(g, rb_f3(0.0f, 5.0f, 0.0f), rb_f3(0.0f, 10.0f, 0.0f), &f, &n));
    assert_float_equal(f, -1.0f, 0.0f);
}

static void test_ray_starting_inside_a_hull_hits_at_zero_against_its_direction(void **state)
{
    (void)state;
    float f;
    rb_float3 n;
    rb_geom g = convex_at(tetrahedron(), rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.0f);
    assert_true(ray(g, rb_f3(0.0f, 0.3f, 0.0f), rb_f3(0.0f, 0.0f, 2.0f), &f, &n));
    assert_float_equal(f, 0.0f, 0.0f);
    assert_vec_equal(n, 0.0f, 0.0f, -1.0f, 0.0f);
}

static void test_ray_against_the_cube_hull_agrees_with_the_box_ray(void **state)
{
    (void)state;
    // Random segments at the unit cube as a hull and as a box: same hit, fraction and normal.
    rng_state = 17u;
    int hits = 0;
    for (int it = 0; it < 5000; ++it) {
        rb_float4 q = random_rotation();
        rb_float3 c = random_vec(-0.5f, 0.5f), o = random_vec(-4.0f, 4.0f);
        rb_float3 d = rb_scale(rb_sub(random_vec(-1.5f, 1.5f), o), frand(0.3f, 2.0f)); // towards the cube
        float f0 = -1.0f, f1 = -1.0f;
        rb_float3 n0 = rb_f3(0.0f, 0.0f, 0.0f), n1 = n0;
        int h0 = ray(box_at(c, q, rb_f3(1.0f, 1.0f, 1.0f)), o, d, &f0, &n0);
        int h1 = ray(convex_at(0, c, q, 0.0f), o, d, &f1, &n1);
        assert_int_equal(h1, h0);
        if (!h0)
            continue;
        ++hits;
        assert_float_equal(f1, f0, 1e-5f);
        assert_vec_equal(n1, n0.x, n0.y, n0.z, 1e-5f);
    }
    assert_true(hits > 500);
}

static void test_ray_at_a_rounded_hull_hits_its_faces_edges_and_corners(void **state)
{
    (void)state;
    // Unit cube rounded by 0.1, rays down by (0, -10, 0) from y = 5:
    // - at (0, 0): the face moved up to y = 1.1, fraction 0.39, normal +y;
    // - at x = 1.05, z = 0: the edge x = y = 1's cylinder at y = 1 + sqrt(0.01 - 0.0025) = 1.0866025,
    //   fraction 0.39133975, normal (0.05, 0.0866025, 0) / 0.1;
    // - at x = z = 1.05: the corner's sphere at y = 1 + sqrt(0.01 - 0.005) = 1.0707107, fraction
    //   0.39292893, normal (0.05, 0.0707107, 0.05) / 0.1;
    // - at x = 1.11: beside it, a miss (the moved planes alone would have hit at x < 1.1 only).
    float f;
    rb_float3 n;
    rb_geom g = convex_at(0, rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), 0.1f);
    rb_float3 down = rb_f3(0.0f, -10.0f, 0.0f);
    assert_true(ray(g, rb_f3(0.0f, 5.0f, 0.0f), down, &f, &n));
    assert_float_equal(f, 0.39f, 1e-6f);
    assert_vec_equal(n, 0.0f, 1.0f, 0.0f, 1e-6f);
    assert_true(ray(g, rb_f3(1.05f, 5.0f, 0.0f), down, &f, &n));
    assert_float_equal(f, 0.39133975f, 1e-6f);
    assert_vec_equal(n, 0.5f, 0.8660254f, 0.0f, 1e-4f);
    assert_true(ray(g, rb_f3(1.05f, 5.0f, 1.05f), down, &f, &n));
    assert_float_equal(f, 0.39292893f, 1e-6f);
    assert_vec_equal(n, 0.5f, 0.70710678f, 0.5f, 1e-4f);
    assert_false(ray(g, rb_f3(1.11f, 5.0f, 0.0f), down, &f, &n));
    // inside the rounding, outside the core: starts inside
    assert_true(ray(g, rb_f3(1.05f, 0.0f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), &f, &n));
    assert_float_equal(f, 0.0f, 0.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sat_agrees_with_brute_force_axis_search_on_random_pairs),
        cmocka_unit_test(test_random_pairs_give_at_most_four_points_midway_and_a_contact_when_overlapping),
        cmocka_unit_test(test_unit_cube_hull_collides_with_a_box_as_box_box_does),
        cmocka_unit_test(test_unit_cube_hull_stacked_on_a_box_gives_the_box_box_square),
        cmocka_unit_test(test_unit_cube_hull_collides_with_a_plane_as_box_plane_does),
        cmocka_unit_test(test_sphere_over_a_hull_face_touches_the_face),
        cmocka_unit_test(test_sphere_beside_a_hull_edge_touches_the_edge),
        cmocka_unit_test(test_sphere_beyond_a_hull_vertex_touches_the_vertex),
        cmocka_unit_test(test_sphere_centre_inside_a_hull_leaves_through_the_nearest_face),
        cmocka_unit_test(test_sphere_convex_matches_sphere_box_on_random_spheres),
        cmocka_unit_test(test_capsule_lying_flat_on_a_hull_face_gives_two_points_at_its_depth),
        cmocka_unit_test(test_capsule_across_a_hull_edge_touches_the_edge_at_one_point),
        cmocka_unit_test(test_capsule_parallel_to_a_hull_edge_touches_it_at_its_closest_point),
        cmocka_unit_test(test_capsule_convex_matches_the_exact_distance_on_random_capsules),
        cmocka_unit_test(test_tetrahedron_resting_on_a_face_gives_three_points),
        cmocka_unit_test(test_a_tilted_rock_keeps_its_penetrating_vertices_not_the_high_ones),
        cmocka_unit_test(test_many_sided_prism_on_a_plane_keeps_four_points),
        cmocka_unit_test(test_rounded_hulls_stacked_report_the_gap_of_their_rounded_surfaces),
        cmocka_unit_test(test_ids_stay_the_same_under_a_one_millimetre_slide),
        cmocka_unit_test(test_normal_points_from_a_to_b_in_either_order),
        cmocka_unit_test(test_many_sided_faces_clipped_against_each_other_keep_at_most_four_points),
        cmocka_unit_test(test_shapes_without_a_pool_have_no_contact_with_a_hull),
        cmocka_unit_test(test_ray_down_onto_a_hull_hits_its_top_face),
        cmocka_unit_test(test_ray_at_a_turned_hull_hits_the_face_it_enters),
        cmocka_unit_test(test_ray_beside_or_short_of_a_hull_misses),
        cmocka_unit_test(test_ray_starting_inside_a_hull_hits_at_zero_against_its_direction),
        cmocka_unit_test(test_ray_against_the_cube_hull_agrees_with_the_box_ray),
        cmocka_unit_test(test_ray_at_a_rounded_hull_hits_its_faces_edges_and_corners),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
