// Capsule-box contact manifolds: rb_collide_capsule_box (core/kernels/collide_capsule_box.h).
#include "kernels/collide_capsule_box.h"
#include "collide_test_util.h"

#define MARGIN 0.02f

// Capsule centred at p whose axis (local y) points along dir.
static rb_geom capsule_along(rb_float3 p, rb_float3 dir, float half_length, float radius)
{
    return capsule_at(p, rotation_between(rb_f3(0.0f, 1.0f, 0.0f), rb_normalize(dir)), half_length, radius);
}

static rb_manifold collide(rb_geom a, rb_geom b) { return collide_from_garbage(rb_collide_capsule_box, a, b, MARGIN); }

static rb_geom unit_box(void) { return box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(1.0f, 0.5f, 1.0f)); }

// ---- face contacts ----

static void test_capsule_lying_on_a_face_gives_two_points_under_its_ends(void **state)
{
    (void)state;
    // Box 2 x 1 x 2 (top face y = 0.5). Capsule along x, half length 0.5, radius 0.25, centre
    // (0.25, 0.5 + 0.25 - 0.0078125, -0.5): it sinks 2^-7 into the top face along its whole length.
    // Normal from capsule to box: -y. Points under the ends x = 0.25 -+ 0.5, midway between the
    // capsule's bottom (0.4921875) and the face (0.5): y = 0.49609375; separation -0.0078125.
    rb_geom cap = capsule_along(rb_f3(0.25f, 0.7421875f, -0.5f), rb_f3(1.0f, 0.0f, 0.0f), 0.5f, 0.25f);
    rb_manifold m = collide(cap, unit_box());
    assert_int_equal(m.count, 2);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 0.0f);
    for (int s = -1; s <= 1; s += 2) {
        int k = find_point(m, rb_f3(0.25f + 0.5f * (float)s, 0.49609375f, -0.5f), 1e-6f);
        assert_float_equal(m.points[k].separation, -0.0078125f, 1e-6f);
    }
    assert_ids_unique(m);
}

static void test_capsule_standing_on_its_end_gives_one_point(void **state)
{
    (void)state;
    // Capsule upright (half length 0.5, radius 0.25) on the top face, sunk 0.01: centre
    // y = 0.5 + 0.5 + 0.25 - 0.01. Its lower end gives (0.3, 0.495, 0.4), separation -0.01; the upper
    // end is 1 higher, far beyond the margin.
    rb_geom cap = capsule_along(rb_f3(0.3f, 1.24f, 0.4f), rb_f3(0.0f, 1.0f, 0.0f), 0.5f, 0.25f);
    rb_manifold m = collide(cap, unit_box());
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 0.0f);
    find_point(m, rb_f3(0.3f, 0.495f, 0.4f), 1e-6f);
    assert_float_equal(m.points[0].separation, -0.01f, 1e-6f);
    // upside down (the same capsule, axis -y) the same end touches
    cap = capsule_along(rb_f3(0.3f, 1.24f, 0.4f), rb_f3(0.0f, -1.0f, 0.0f), 0.5f, 0.25f);
    m = collide(cap, unit_box());
    assert_int_equal(m.count, 1);
    find_point(m, rb_f3(0.3f, 0.495f, 0.4f), 1e-6f);
}

static void test_capsule_of_zero_length_touches_like_a_sphere(void **state)
{
    (void)state;
    // Half length 0: both ends coincide; one point, under the centre, depth 0.01.
    rb_geom cap = capsule_along(rb_f3(-0.5f, 0.74f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), 0.0f, 0.25f);
    rb_manifold m = collide(cap, unit_box());
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 0.0f);
    find_point(m, rb_f3(-0.5f, 0.495f, 0.0f), 1e-6f);
    assert_float_equal(m.points[0].separation, -0.01f, 1e-6f);
}

static void test_capsule_lying_over_the_edge_of_a_face_is_clipped_at_the_edge(void **state)
{
    (void)state;
    // Capsule along x from x = 0.4 to 1.4 (centre 0.9, half length 0.5), radius 0.25, sunk 0.01 into the
    // top face, which ends at x = 1. The segment is clipped by the face's side plane x = 1: points at
    // x = 0.4 (the capsule's end) and x = 1 (the cut), both at y = 0.495, separation -0.01.
    rb_geom cap = capsule_along(rb_f3(0.9f, 0.74f, 0.2f), rb_f3(1.0f, 0.0f, 0.0f), 0.5f, 0.25f);
    rb_manifold m = collide(cap, unit_box());
    assert_int_equal(m.count, 2);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 0.0f);
    int end = find_point(m, rb_f3(0.4f, 0.495f, 0.2f), 1e-6f);
    int cut = find_point(m, rb_f3(1.0f, 0.495f, 0.2f), 1e-6f);
    assert_float_equal(m.points[end].separation, -0.01f, 1e-6f);
    assert_float_equal(m.points[cut].separation, -0.01f, 1e-6f);
    assert_ids_unique(m);
    // lying diagonally across the whole face (x = z, longer than the diagonal): cut on both sides at the
    // corners (+-1, +-1)
    cap = capsule_along(rb_f3(0.0f, 0.74f, 0.0f), rb_f3(1.0f, 0.0f, 1.0f), 2.0f, 0.25f);
    m = collide(cap, unit_box());
    assert_int_equal(m.count, 2);
    find_point(m, rb_f3(1.0f, 0.495f, 1.0f), 1e-5f);
    find_point(m, rb_f3(-1.0f, 0.495f, -1.0f), 1e-5f);
    assert_ids_unique(m);
}

static void test_capsule_on_a_turned_box_gives_points_on_the_turned_face(void **state)
{
    (void)state;
    // The box turned 30 deg about z: its top face normal is (-sin30, cos30, 0) = (-0.5, 0.8660254, 0).
    // Capsule along the box's z (lying on that face), centre 0.74 out along the normal: separation
    // 0.74 - 0.5 - 0.25 = -0.01; points at the ends, z = 0.1 -+ 0.3, halfway between the surfaces:
    // 0.495 along the normal.
    rb_float3 n = rb_f3(-0.5f, 0.8660254f, 0.0f);
    rb_geom box = box_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 0.0f, 1.0f, RB_PI / 6.0f), rb_f3(1.0f, 0.5f, 1.0f));
    rb_geom cap =
        capsule_along(rb_add(rb_scale(n, 0.74f), rb_f3(0.0f, 0.0f, 0.1f)), rb_f3(0.0f, 0.0f, 1.0f), 0.3f, 0.25f);
    rb_manifold m = collide(cap, box);
    assert_int_equal(m.count, 2);
    assert_normal(m, 0.5f, -0.8660254f, 0.0f, 1e-6f);
    for (int s = -1; s <= 1; s += 2) {
        int k = find_point(m, rb_add(rb_scale(n, 0.495f), rb_f3(0.0f, 0.0f, 0.1f + 0.3f * (float)s)), 1e-5f);
        assert_float_equal(m.points[k].separation, -0.01f, 1e-5f);
    }
}

// ---- edges and corners ----

static void test_capsule_across_a_box_edge_gives_one_point_on_the_edge(void **state)
{
    (void)state;
    // Cube of half 0.5; its edge along x at (y, z) = (0.5, 0.5). Capsule perpendicular to it, axis
    // (0, 1, -1)/sqrt2, radius 0.2, centre 0.19 out from the edge point (0.1, 0.5, 0.5) along the
    // diagonal d = (0, 1, 1)/sqrt2: 0.01 deep. Normal -d (capsule to box), one point midway between the
    // capsule's surface (0.01 inside) and the edge: edge point - 0.005 d.
    rb_float3 dg = rb_f3(0.0f, 0.70710678f, 0.70710678f);
    rb_float3 edge = rb_f3(0.1f, 0.5f, 0.5f);
    rb_geom box = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom cap = capsule_along(rb_mad(edge, 0.19f, dg), rb_f3(0.0f, 1.0f, -1.0f), 0.6f, 0.2f);
    rb_manifold m = collide(cap, box);
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, -0.70710678f, -0.70710678f, 1e-6f);
    find_point(m, rb_mad(edge, -0.005f, dg), 1e-6f);
    assert_float_equal(m.points[0].separation, -0.01f, 1e-6f);
}

static void test_capsule_end_over_a_box_corner_gives_a_diagonal_normal(void **state)
{
    (void)state;
    // Capsule pointing at the cube's corner (0.5, 0.5, 0.5) along the diagonal c = (1, 1, 1)/sqrt3, its
    // lower end 0.24 from the corner with radius 0.25: 0.01 deep. Normal -c, one point 0.005 out from
    // the corner.
    rb_float3 c = rb_f3(0.57735027f, 0.57735027f, 0.57735027f);
    rb_float3 corner = rb_f3(0.5f, 0.5f, 0.5f);
    rb_geom box = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom cap = capsule_along(rb_mad(corner, 0.24f + 0.4f, c), c, 0.4f, 0.25f);
    rb_manifold m = collide(cap, box);
    assert_int_equal(m.count, 1);
    assert_normal(m, -0.57735027f, -0.57735027f, -0.57735027f, 1e-5f);
    find_point(m, rb_mad(corner, -0.005f, c), 1e-5f);
    assert_float_equal(m.points[0].separation, -0.01f, 1e-5f);
}

// ---- deep ----

static void test_capsule_with_its_axis_inside_the_box_is_pushed_out_through_the_nearest_face(void **state)
{
    (void)state;
    // Box 2 x 1 x 2; capsule along x (half length 0.5, radius 0.25) centred (0, 0.3, 0): its whole
    // segment is inside. Least penetration: y, 0.5 - 0.3 + 0.25 = 0.45 (x: 1 + 0.5 + 0.25, z: 1.25). Normal
    // from capsule to box -y; both ends give separation -0.45, midway between the capsule's bottom
    // (0.05) and the top face (0.5): y = 0.275.
    rb_geom cap = capsule_along(rb_f3(0.0f, 0.3f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), 0.5f, 0.25f);
    rb_manifold m = collide(cap, unit_box());
    assert_int_equal(m.count, 2);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 0.0f);
    for (int s = -1; s <= 1; s += 2) {
        int k = find_point(m, rb_f3(0.5f * (float)s, 0.275f, 0.0f), 1e-6f);
        assert_float_equal(m.points[k].separation, -0.45f, 1e-6f);
    }
    // the segment poking down into the box from above, tilted: still pushed out through the top face
    cap = capsule_along(rb_f3(0.2f, 0.6f, 0.1f), rb_f3(0.3f, 1.0f, 0.0f), 0.5f, 0.1f);
    m = collide(cap, unit_box());
    assert_true(m.count >= 1);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 0.0f);
    // lower end: (0.2, 0.6, 0.1) - 0.5 (0.3, 1, 0)/|(0.3, 1, 0)| has y = 0.6 - 0.5/1.0440307 = 0.1210827,
    // so the deepest separation is 0.1210827 - 0.5 - 0.1
    float deepest = 0.0f;
    for (int i = 0; i < m.count; ++i)
        deepest = fminf(deepest, m.points[i].separation);
    assert_float_equal(deepest, 0.1210827f - 0.6f, 1e-5f);
}

static void test_capsule_sunk_into_a_box_edge_is_pushed_out_along_the_edge_normal(void **state)
{
    (void)state;
    // As the edge test, but the segment itself is 0.05 inside the cube past the edge (0.1, 0.5, 0.5):
    // centre = edge point - 0.05 d. Face axes overlap by about 0.39 + r; the axis (segment x edge) = d
    // by only 0.05 + r = 0.15. Normal -d, separation -0.15, point midway between the capsule's surface
    // (0.15 inside along -d) and the edge: edge point - 0.075 d.
    rb_float3 dg = rb_f3(0.0f, 0.70710678f, 0.70710678f);
    rb_float3 edge = rb_f3(0.1f, 0.5f, 0.5f);
    rb_geom box = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom cap = capsule_along(rb_mad(edge, -0.05f, dg), rb_f3(0.0f, 1.0f, -1.0f), 0.5f, 0.1f);
    rb_manifold m = collide(cap, box);
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, -0.70710678f, -0.70710678f, 1e-6f);
    find_point(m, rb_mad(edge, -0.075f, dg), 1e-6f);
    assert_float_equal(m.points[0].separation, -0.15f, 1e-6f);
}

static void test_capsule_centred_in_the_box_gives_a_deterministic_finite_contact(void **state)
{
    (void)state;
    // Capsule along x at the centre of the 2 x 1 x 2 box: least penetration y (0.5 + 0.25); the zero
    // offset counts as positive, so the capsule is pushed out through the +y face (normal -y).
    rb_geom cap = capsule_along(rb_f3(0.0f, 0.0f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), 0.5f, 0.25f);
    rb_manifold m1 = collide(cap, unit_box());
    rb_manifold m2 = collide(cap, unit_box());
    assert_memory_equal(&m1, &m2, sizeof m1);
    assert_int_equal(m1.count, 2);
    assert_normal(m1, 0.0f, -1.0f, 0.0f, 0.0f);
    for (int i = 0; i < m1.count; ++i) {
        assert_true(rb_is_finite3(m1.points[i].point));
        assert_float_equal(m1.points[i].separation, -0.75f, 1e-6f);
    }
}

// ---- margin ----

static void test_capsule_closer_than_the_margin_gives_speculative_points(void **state)
{
    (void)state;
    // Lying 2^-7 above the top face (margin 0.02): two points with separation +0.0078125, midway in the
    // gap at y = 0.5 + 0.00390625.
    rb_geom cap = capsule_along(rb_f3(0.0f, 0.7578125f, 0.0f), rb_f3(0.0f, 0.0f, 1.0f), 0.5f, 0.25f);
    rb_manifold m = collide(cap, unit_box());
    assert_int_equal(m.count, 2);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 0.0f);
    for (int s = -1; s <= 1; s += 2) {
        int k = find_point(m, rb_f3(0.0f, 0.50390625f, 0.5f * (float)s), 1e-6f);
        assert_float_equal(m.points[k].separation, 0.0078125f, 1e-6f);
    }
    // tilted so that one end is 0.01 up and the other 0.03 up: only the lower end is within the margin
    // (the segment runs from z = -0.5 to 0.5 with its height rising by 0.02)
    cap = capsule_along(rb_f3(0.0f, 0.77f, 0.0f), rb_f3(0.0f, 0.02f, 1.0f), 0.5f * sqrtf(1.0f + 0.0004f), 0.25f);
    m = collide(cap, unit_box());
    assert_int_equal(m.count, 1);
    assert_float_equal(m.points[0].separation, 0.01f, 1e-5f);
    assert_float_equal(m.points[0].point.z, -0.5f, 1e-5f);
}

static void test_capsule_farther_than_the_margin_has_no_contact(void **state)
{
    (void)state;
    // 0.03 above the top face, 0.03 off a side face, 0.03 from an edge: all beyond the 0.02 margin.
    rb_manifold m = collide(capsule_along(rb_f3(0.0f, 0.78f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), 0.5f, 0.25f), unit_box());
    assert_int_equal(m.count, 0);
    m = collide(capsule_along(rb_f3(1.28f, 0.0f, 0.0f), rb_f3(0.0f, 1.0f, 0.0f), 0.5f, 0.25f), unit_box());
    assert_int_equal(m.count, 0);
    rb_float3 dg = rb_f3(0.0f, 0.70710678f, 0.70710678f);
    rb_geom box = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(0.5f, 0.5f, 0.5f));
    m = collide(capsule_along(rb_mad(rb_f3(0.1f, 0.5f, 0.5f), 0.23f, dg), rb_f3(0.0f, 1.0f, -1.0f), 0.6f, 0.2f), box);
    assert_int_equal(m.count, 0);
}

// ---- ids ----

static void assert_ids_stable(rb_geom cap, rb_geom box)
{
    // 1e-4 m shift and 1e-3 rad turn of the capsule: same features, same ids
    rb_manifold m0 = collide(cap, box);
    assert_true(m0.count > 0);
    assert_ids_unique(m0);
    for (int i = 0; i < NUDGES; ++i)
        assert_same_ids(m0, collide(nudged(cap, i), box));
}

static void test_feature_ids_survive_a_tiny_perturbation_and_are_unique(void **state)
{
    (void)state;
    // lying on the face (two capsule ends), over the face's edge (an end and a cut), standing (one
    // end), across a box edge, sunk into a box edge
    assert_ids_stable(capsule_along(rb_f3(0.25f, 0.74f, -0.5f), rb_f3(1.0f, 0.0f, 0.0f), 0.5f, 0.25f), unit_box());
    assert_ids_stable(capsule_along(rb_f3(0.9f, 0.74f, 0.2f), rb_f3(1.0f, 0.0f, 0.0f), 0.5f, 0.25f), unit_box());
    assert_ids_stable(capsule_along(rb_f3(0.3f, 1.24f, 0.4f), rb_f3(0.0f, 1.0f, 0.0f), 0.5f, 0.25f), unit_box());
    rb_float3 dg = rb_f3(0.0f, 0.70710678f, 0.70710678f);
    rb_geom cube = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(0.5f, 0.5f, 0.5f));
    assert_ids_stable(capsule_along(rb_mad(rb_f3(0.1f, 0.5f, 0.5f), 0.19f, dg), rb_f3(0.0f, 1.0f, -1.0f), 0.6f, 0.2f),
                      cube);
    assert_ids_stable(capsule_along(rb_mad(rb_f3(0.1f, 0.5f, 0.5f), -0.05f, dg), rb_f3(0.0f, 1.0f, -1.0f), 0.5f, 0.1f),
                      cube);
    // the same box edge gives the same id whether the segment is outside (closest points) or
    // inside (separating axes)
    rb_manifold out =
        collide(capsule_along(rb_mad(rb_f3(0.1f, 0.5f, 0.5f), 0.19f, dg), rb_f3(0.0f, 1.0f, -1.0f), 0.6f, 0.2f), cube);
    rb_manifold in =
        collide(capsule_along(rb_mad(rb_f3(0.1f, 0.5f, 0.5f), -0.05f, dg), rb_f3(0.0f, 1.0f, -1.0f), 0.6f, 0.2f), cube);
    assert_int_equal(out.points[0].id, in.points[0].id);
}

// ---- fuzz ----

static void capsule_ends(rb_geom c, dvec *p0, dvec *p1)
{
    dvec axis = drotate(c.xf.q, (dvec){0.0, 1.0, 0.0});
    double h = (double)c.params.x;
    dvec p = dv_from(c.xf.p);
    *p0 = (dvec){p.x - h * axis.x, p.y - h * axis.y, p.z - h * axis.z};
    *p1 = (dvec){p.x + h * axis.x, p.y + h * axis.y, p.z + h * axis.z};
}

// Distance from the capsule's segment to the box, by brute force: the segment, in the box's frame, is
// sampled at 1000 points, and since the distance along it is convex the best sample's neighbourhood is
// then narrowed by ternary search to the exact minimum.
static double local_distance(dvec p, const double h[3])
{
    double s = 0.0, c[3] = {p.x, p.y, p.z};
    for (int k = 0; k < 3; ++k) {
        double e = fabs(c[k]) - h[k];
        if (e > 0.0)
            s += e * e;
    }
    return sqrt(s);
}

static double segment_box_distance(rb_geom cap, rb_geom box)
{
    dvec w0, w1, ax[3];
    capsule_ends(cap, &w0, &w1);
    daxes(box.xf.q, ax);
    dvec d0 = dsub(w0, dv_from(box.xf.p)), d1 = dsub(w1, dv_from(box.xf.p));
    dvec p0 = {ddot(d0, ax[0]), ddot(d0, ax[1]), ddot(d0, ax[2])};
    dvec p1 = {ddot(d1, ax[0]), ddot(d1, ax[1]), ddot(d1, ax[2])};
    dvec dl = dsub(p1, p0);
    double h[3] = {(double)box.params.x, (double)box.params.y, (double)box.params.z};
#define AT(t) local_distance((dvec){p0.x + (t)*dl.x, p0.y + (t)*dl.y, p0.z + (t)*dl.z}, h)
    int best_i = 0;
    double best = 1e30;
    for (int i = 0; i <= 1000; ++i) {
        double d = AT(i / 1000.0);
        if (d < best) {
            best = d;
            best_i = i;
        }
    }
    double lo = fmax(0.0, (best_i - 1) / 1000.0), hi = fmin(1.0, (best_i + 1) / 1000.0);
    for (int k = 0; k < 100; ++k) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (AT(m1) <= AT(m2))
            hi = m2;
        else
            lo = m1;
    }
    double d = AT(0.5 * (lo + hi));
#undef AT
    return fmin(best, d);
}

static double point_segment_distance(rb_geom cap, rb_float3 p)
{
    dvec p0, p1, q = dv_from(p);
    capsule_ends(cap, &p0, &p1);
    dvec d = dsub(p1, p0), e = dsub(q, p0);
    double l2 = ddot(d, d), t = l2 > 0.0 ? ddot(e, d) / l2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    dvec c = {p0.x + t * d.x - q.x, p0.y + t * d.y - q.y, p0.z + t * d.z - q.z};
    return sqrt(ddot(c, c));
}

// Least penetration of the segment (radius r) into the box over the axes that can separate them: the
// box's face normals and (segment direction x box edge). Used when the segment touches the box.
static double segment_box_sat(rb_geom cap, rb_geom box)
{
    dvec w0, w1, ax[3], axes[6];
    capsule_ends(cap, &w0, &w1);
    dvec c = {0.5 * (w0.x + w1.x), 0.5 * (w0.y + w1.y), 0.5 * (w0.z + w1.z)};
    dvec hw = {0.5 * (w1.x - w0.x), 0.5 * (w1.y - w0.y), 0.5 * (w1.z - w0.z)};
    daxes(box.xf.q, ax);
    int n = 0;
    for (int k = 0; k < 3; ++k) {
        axes[n++] = ax[k];
        dvec x = dcross(hw, ax[k]);
        double l = sqrt(ddot(x, x));
        if (l > 1e-6 * (sqrt(ddot(hw, hw)) + 1e-30) && l > 1e-12)
            axes[n++] = (dvec){x.x / l, x.y / l, x.z / l};
    }
    double h[3] = {(double)box.params.x, (double)box.params.y, (double)box.params.z}, best = -1e30;
    dvec d = dsub(c, dv_from(box.xf.p));
    for (int i = 0; i < n; ++i) {
        double rb = 0.0;
        for (int k = 0; k < 3; ++k)
            rb += h[k] * fabs(ddot(ax[k], axes[i]));
        double s = fabs(ddot(d, axes[i])) - fabs(ddot(hw, axes[i])) - rb - (double)cap.params.y;
        best = fmax(best, s);
    }
    return best;
}

// The next random pair: half placed anywhere within reach, half (odd `iter`) slid along a random
// direction until the segment is at a distance r + [-0.03, 0.03] from the box (resting and speculative).
static void random_pair(int iter, rb_geom *cap, rb_geom *box)
{
    rb_float3 h = rb_f3(frand(0.05f, 1.0f), frand(0.05f, 1.0f), frand(0.05f, 1.0f));
    float half = frand(0.0f, 0.5f), r = frand(0.02f, 0.5f);
    float reach = 0.9f * (rb_len(h) + half + r);
    rb_float3 pb = rb_f3(frand(-5.0f, 5.0f), frand(-5.0f, 5.0f), frand(-5.0f, 5.0f));
    rb_float3 off = rb_f3(frand(-reach, reach), frand(-reach, reach), frand(-reach, reach));
    *box = box_at(pb, random_rotation_often_aligned(), h);
    *cap = capsule_at(rb_add(pb, off), random_rotation_often_aligned(), half, r);
    if (iter & 1) {
        // the distance grows monotonically along the ray (convex shapes): bisect for the target
        float target = r + frand(-0.03f, 0.03f), lo = 0.0f, hi = 2.0f * reach / (rb_len(off) + 1e-6f);
        for (int k = 0; k < 30; ++k) {
            float t = 0.5f * (lo + hi);
            cap->xf.p = rb_mad(pb, t, off);
            if (segment_box_distance(*cap, *box) < (double)target)
                lo = t;
            else
                hi = t;
        }
        cap->xf.p = rb_mad(pb, hi, off);
    }
}

typedef struct fuzz_stats {
    int contacts, deep, speculative, two_points;
} fuzz_stats;

// Invariants on `count` random pairs from `seed`, against the brute-force distance D of the segment
// to the box (true separation D - r): finite output, unit normal pointing from the capsule's side to
// the box's, at most 2 points with distinct ids, no contact beyond the margin, some contact when
// overlapping by more than 1 mm; when the segment is outside the box, no point deeper than the true
// separation and the deepest one equal to it (1 mm: the face normal stands in for a normal up to
// ~1 deg off it); when it touches the box, no point deeper than an independent SAT's least
// penetration allows; every point midway between the surfaces: point - separation/2 along the normal
// is inside or on the capsule, point + separation/2 on the box.
static fuzz_stats fuzz_capsule_box(uint32_t seed, int count)
{
    fuzz_stats st = {0, 0, 0, 0};
    rng_state = seed;
    for (int iter = 0; iter < count; ++iter) {
        rb_geom cap, box;
        random_pair(iter, &cap, &box);
        rb_manifold m = collide(cap, box);
        double r = (double)cap.params.y;
        double dist = segment_box_distance(cap, box), sep = dist - r;

        assert_true(m.count >= 0 && m.count <= 2);
        assert_true(rb_is_finite3(m.normal));
        assert_float_equal(rb_len(m.normal), 1.0f, 1e-5f);
        if (sep > (double)MARGIN + 2e-4)
            assert_int_equal(m.count, 0);
        if (sep < -1e-3 && m.count == 0)
            fail_msg("seed %u iteration %d: capsule overlaps the box by %g but no contact", seed, iter, -sep);
        if (m.count == 0)
            continue;
        ++st.contacts;
        st.deep += dist < 1e-4;
        st.speculative += sep > 0.0;
        st.two_points += m.count == 2;
        assert_ids_unique(m);
        assert_true(rb_dot(m.normal, rb_sub(box.xf.p, cap.xf.p)) >= -1e-5f);
        double sat = dist < 1e-3 ? segment_box_sat(cap, box) : sep;
        double deepest = 1e30;
        for (int i = 0; i < m.count; ++i) {
            rb_manifold_point p = m.points[i];
            assert_true(rb_is_finite3(p.point));
            assert_true(p.separation < MARGIN);
            deepest = fmin(deepest, (double)p.separation);
            if (dist > 1e-3 && (double)p.separation < sep - 2e-4)
                fail_msg("seed %u iteration %d: separation %g below the true %g", seed, iter, (double)p.separation,
                         sep);
            // segment touching the box: no deeper than the least penetration, give or take the
            // face-over-edge tolerance: a face f is kept while sat <= f + 0.0025 + 0.05 |f|, i.e. (f < 0)
            // f >= (sat - 0.0025) / 0.95 >= sat - 0.0025 - 0.06 |sat| (|sat| < 2 m)
            if (dist < 1e-3 && (double)p.separation < sat - 0.0025 - 0.06 * fabs(sat) - 2e-4)
                fail_msg("seed %u iteration %d: separation %g below the least penetration %g", seed, iter,
                         (double)p.separation, sat);
            rb_float3 on_cap = rb_mad(p.point, -0.5f * p.separation, m.normal);
            rb_float3 on_box = rb_mad(p.point, 0.5f * p.separation, m.normal);
            double dc = point_segment_distance(cap, on_cap) - r, db = point_box_distance(box, on_box);
            if (dc > 1e-4 || db > 1e-4)
                fail_msg("seed %u iteration %d: point %d (sep %g): surface points %g off the capsule, %g off the box",
                         seed, iter, i, (double)p.separation, dc, db);
        }
        if (dist > 1e-3 && fabs(deepest - sep) > 1e-3)
            fail_msg("seed %u iteration %d: deepest separation %g, true %g", seed, iter, deepest, sep);
    }
    return st;
}

static void test_random_capsule_box_pairs_agree_with_brute_force_distance(void **state)
{
    (void)state;
    fuzz_stats st = fuzz_capsule_box(2024u, 3000);
    print_message("%d contacts, %d deep, %d speculative, %d with two points\n", st.contacts, st.deep, st.speculative,
                  st.two_points);
    assert_true(st.contacts > 1500 && st.deep > 100 && st.speculative > 200 && st.two_points > 100);
}

// ---- speculative contacts at large margins (fast bodies) ----

static void test_capsule_above_a_wall_edge_touches_it_at_the_true_distance(void **state)
{
    (void)state;
    // A capsule (half length 0.05, radius 0.03, upright) shot at 100 m/s towards the top edge of a 0.1 m
    // wall (x in [-0.05, 0.05], y <= 1), a frame before it gets there (margin 0.576 from its speed):
    // its lower end (-0.3276, 1.0194) is (0.2776, -0.0194) from the wall's top left edge, 0.278277 away,
    // minus the radius 0.248277. One point, midway between the capsule's surface and the edge, the
    // normal along the gap.
    rb_geom cap = capsule_at(rb_f3(-0.3276f, 1.0694f, 0.0f), rb_quat_identity(), 0.05f, 0.03f);
    rb_geom wall = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(0.05f, 1.0f, 1.0f));
    double gx = 0.2776, gy = -0.0194, dist = sqrt(gx * gx + gy * gy);
    rb_manifold m = collide_from_garbage(rb_collide_capsule_box, cap, wall, 0.576f);
    assert_int_equal(m.count, 1);
    assert_normal(m, (float)(gx / dist), (float)(gy / dist), 0.0f, 2e-5f);
    assert_float_equal(m.points[0].separation, (float)(dist - 0.03), 2e-5f);
    double mid = 0.5 * (0.03 + dist);
    find_point(m, rb_f3((float)(-0.3276 + mid * gx / dist), (float)(1.0194 + mid * gy / dist), 0.0f), 2e-5f);
    // the margin decides on that distance
    assert_int_equal(collide_from_garbage(rb_collide_capsule_box, cap, wall, 0.248f).count, 0);
    assert_int_equal(collide_from_garbage(rb_collide_capsule_box, cap, wall, 0.2485f).count, 1);
}

static void test_random_capsules_near_boxes_touch_at_their_true_distance_at_large_margins(void **state)
{
    (void)state;
    // Pairs slid apart to a true separation (segment distance - radius) drawn in (0, 1.5 margin), for
    // the margins of fast bodies: a contact below the margin, none above it; the deepest separation is
    // the true one, or up to RB_CAPSULE_BOX_FACE_SLACK (0.5 mm) more where a face contact stands in for
    // a normal within a degree of the face's; no point below it.
    const float margins[2] = {0.1f, 0.6f};
    for (int k = 0; k < 2; ++k) {
        float margin = margins[k];
        int below = 0, above = 0;
        rng_state = 515u + (uint32_t)k;
        for (int iter = 0; iter < 1500; ++iter) {
            rb_geom cap, box;
            random_pair(0, &cap, &box);
            rb_float3 dir = rb_normalize(random_vec(-1.0f, 1.0f));
            double r = (double)cap.params.y, target = (double)frand(0.0f, 1.5f * margin);
            float t0 = 0.0f, t1 = rb_len(rb_xyz(box.params)) + cap.params.x + cap.params.y + 2.0f * margin;
            for (int i = 0; i < 40; ++i) {
                float t = 0.5f * (t0 + t1);
                cap.xf.p = rb_mad(box.xf.p, t, dir);
                if (segment_box_distance(cap, box) - r < target)
                    t0 = t;
                else
                    t1 = t;
            }
            cap.xf.p = rb_mad(box.xf.p, t1, dir);
            double sep = segment_box_distance(cap, box) - r;
            if (sep <= 1e-4 || fabs(sep - (double)margin) < 1e-4)
                continue;
            rb_manifold m = collide_from_garbage(rb_collide_capsule_box, cap, box, margin);
            if (sep > (double)margin) {
                ++above;
                if (m.count != 0)
                    fail_msg("margin %g iteration %d: %g apart but %d points", (double)margin, iter, sep, m.count);
                continue;
            }
            ++below;
            if (m.count == 0)
                fail_msg("margin %g iteration %d: %g apart, no point", (double)margin, iter, sep);
            double deepest = 1e30;
            for (int i = 0; i < m.count; ++i)
                deepest = fmin(deepest, (double)m.points[i].separation);
            if (deepest < sep - 1e-4 || deepest > sep + 5e-4 + 1e-4)
                fail_msg("margin %g iteration %d: deepest separation %g, true %g", (double)margin, iter, deepest, sep);
        }
        print_message("margin %g: %d below, %d above\n", (double)margin, below, above);
        assert_true(below > 800 && above > 300);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capsule_lying_on_a_face_gives_two_points_under_its_ends),
        cmocka_unit_test(test_capsule_standing_on_its_end_gives_one_point),
        cmocka_unit_test(test_capsule_of_zero_length_touches_like_a_sphere),
        cmocka_unit_test(test_capsule_lying_over_the_edge_of_a_face_is_clipped_at_the_edge),
        cmocka_unit_test(test_capsule_on_a_turned_box_gives_points_on_the_turned_face),
        cmocka_unit_test(test_capsule_across_a_box_edge_gives_one_point_on_the_edge),
        cmocka_unit_test(test_capsule_end_over_a_box_corner_gives_a_diagonal_normal),
        cmocka_unit_test(test_capsule_with_its_axis_inside_the_box_is_pushed_out_through_the_nearest_face),
        cmocka_unit_test(test_capsule_sunk_into_a_box_edge_is_pushed_out_along_the_edge_normal),
        cmocka_unit_test(test_capsule_centred_in_the_box_gives_a_deterministic_finite_contact),
        cmocka_unit_test(test_capsule_closer_than_the_margin_gives_speculative_points),
        cmocka_unit_test(test_capsule_farther_than_the_margin_has_no_contact),
        cmocka_unit_test(test_feature_ids_survive_a_tiny_perturbation_and_are_unique),
        cmocka_unit_test(test_random_capsule_box_pairs_agree_with_brute_force_distance),
        cmocka_unit_test(test_capsule_above_a_wall_edge_touches_it_at_the_true_distance),
        cmocka_unit_test(test_random_capsules_near_boxes_touch_at_their_true_distance_at_large_margins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
