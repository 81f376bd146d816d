// Box-box contact manifolds: rb_collide_box_box (core/kernels/collide_box_box.h).
#include "kernels/collide_box_box.h"
#include "collide_test_util.h"

#define MARGIN 0.02f

static rb_manifold collide(rb_geom a, rb_geom b) { return collide_from_garbage(rb_collide_box_box, a, b, MARGIN); }

// A cube of side 1.
static rb_geom cube_at(rb_float3 p, rb_float4 q) { return box_at(p, q, rb_f3(0.5f, 0.5f, 0.5f)); }

// ---- independent reference geometry, in double ----

// Largest separation over all 15 axes (< 0: the boxes overlap by at least that much on every axis).
static double sat_separation(rb_geom a, rb_geom b)
{
    dvec ua[3], ub[3], axes[15];
    daxes(a.xf.q, ua);
    daxes(b.xf.q, ub);
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        axes[n++] = ua[i];
        axes[n++] = ub[i];
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            dvec c = dcross(ua[i], ub[j]);
            double l = dlen(c);
            if (l > 1e-6)
                axes[n++] = (dvec){c.x / l, c.y / l, c.z / l};
        }
    double ha[3] = {(double)a.params.x, (double)a.params.y, (double)a.params.z};
    double hb[3] = {(double)b.params.x, (double)b.params.y, (double)b.params.z};
    dvec d = dsub(dv_from(b.xf.p), dv_from(a.xf.p));
    double best = -1e30;
    for (int k = 0; k < n; ++k) {
        double ra = 0.0, rbb = 0.0;
        for (int i = 0; i < 3; ++i) {
            ra += ha[i] * fabs(ddot(ua[i], axes[k]));
            rbb += hb[i] * fabs(ddot(ub[i], axes[k]));
        }
        double s = fabs(ddot(d, axes[k])) - ra - rbb;
        if (s > best)
            best = s;
    }
    return best;
}

// ---- resting contacts ----

static void test_box_resting_flat_on_bigger_box_gives_its_four_bottom_corners(void **state)
{
    (void)state;
    // A: 4 x 1 x 4 slab, top face at y = 0.5. B: unit cube centred (0.25, 0.9921875, -0.5), so its bottom
    // is at 0.4921875: it sinks 2^-7 = 0.0078125 into A. Normal +y (A's top face is the reference;
    // B's bottom face separates just as much, and ties go to A). The four points are B's bottom
    // corners x in {-0.25, 0.75}, z in {-1, 0}, moved half the depth up: y = 0.5 - 0.00390625.
    rb_geom a = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(2.0f, 0.5f, 2.0f));
    rb_geom b = cube_at(rb_f3(0.25f, 0.9921875f, -0.5f), rb_quat_identity());
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 4);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 0.0f);
    const float xs[2] = {-0.25f, 0.75f}, zs[2] = {-1.0f, 0.0f};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            int k = find_point(m, rb_f3(xs[i], 0.49609375f, zs[j]), 0.0f);
            assert_float_equal(m.points[k].separation, -0.0078125f, 0.0f);
        }
    assert_ids_unique(m);
}

static void test_identical_boxes_stacked_exactly_use_the_lower_box_face(void **state)
{
    (void)state;
    // Two unit cubes, B 0.984375 above A: depth 1 - 0.984375 = 0.015625. A's +y face and B's -y face
    // separate equally; the tie goes to A, so every id has the "reference on B" bit (14) clear.
    // Points: the shared square's corners (+-0.5, 0.5 - 0.0078125, +-0.5).
    rb_geom a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity());
    rb_geom b = cube_at(rb_f3(0.0f, 0.984375f, 0.0f), rb_quat_identity());
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 4);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 0.0f);
    for (int i = 0; i < 4; ++i) {
        int k = find_point(m, rb_f3((i & 1) ? 0.5f : -0.5f, 0.4921875f, (i & 2) ? 0.5f : -0.5f), 0.0f);
        assert_float_equal(m.points[k].separation, -0.015625f, 0.0f);
        assert_int_equal(m.points[k].id & 0x4000u, 0u);
    }
    assert_ids_unique(m);
}

static void test_box_turned_45_degrees_about_the_normal_gives_four_points_of_the_octagon(void **state)
{
    (void)state;
    // Unit cubes, B turned 45 deg about y and sunk 0.01. Its bottom square (a diamond reaching 0.7071)
    // clipped by A's top square is an octagon with vertices (+-0.5, +-0.2071) and (+-0.2071, +-0.5);
    // reduced to 4. All lie in both footprints at depth 0.01, midway at y = 0.495, and span a large part
    // of the octagon (area 0.828): any 4 of its vertices that are not clustered cover more than 0.5.
    rb_geom a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity());
    rb_geom b = cube_at(rb_f3(0.0f, 0.99f, 0.0f), turn(0.0f, 1.0f, 0.0f, 0.25f * RB_PI));
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 4);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 1e-6f);
    for (int i = 0; i < 4; ++i) {
        rb_float3 p = m.points[i].point;
        assert_float_equal(m.points[i].separation, -0.01f, 1e-5f);
        assert_float_equal(p.y, 0.495f, 1e-5f);
        assert_true(fabsf(p.x) <= 0.5f + 1e-5f && fabsf(p.z) <= 0.5f + 1e-5f);
        // B's footprint: |x +- z| / sqrt(2) <= 0.5
        assert_true(fabsf(p.x + p.z) <= 0.70711f && fabsf(p.x - p.z) <= 0.70711f);
        // on the octagon's boundary: one of the coordinates is +-0.5
        assert_true(fabsf(fabsf(p.x) - 0.5f) < 1e-5f || fabsf(fabsf(p.z) - 0.5f) < 1e-5f);
    }
    // area of the quad (points sorted by angle about the centre)
    float ang[4];
    int order[4] = {0, 1, 2, 3};
    for (int i = 0; i < 4; ++i)
        ang[i] = atan2f(m.points[i].point.z, m.points[i].point.x);
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j)
            if (ang[order[j]] < ang[order[i]]) {
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    float area = 0.0f;
    for (int i = 0; i < 4; ++i) {
        rb_float3 p = m.points[order[i]].point, q = m.points[order[(i + 1) % 4]].point;
        area += 0.5f * (p.x * q.z - q.x * p.z);
    }
    assert_true(fabsf(area) > 0.5f);
    assert_ids_unique(m);
}

static void test_box_tilted_onto_an_edge_gives_two_points_along_that_edge(void **state)
{
    (void)state;
    // B (unit cube) turned 30 deg about z: its corner (-0.5, -0.5) goes to
    // (-0.5 cos30 + 0.5 sin30, -0.5 sin30 - 0.5 cos30) = (-0.1830127, -0.6830127), the lowest edge (along
    // z). Centre at (0.3, 0.5 + 0.6830127 - 0.01, 0.2) on the 4 x 1 x 4 slab: that edge sinks 0.01, the
    // rest of B's bottom face rises away. Two points, (0.3 - 0.1830127, 0.495, 0.2 +- 0.5).
    rb_geom a = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(2.0f, 0.5f, 2.0f));
    rb_geom b =
        cube_at(rb_f3(0.3f, 0.5f + 0.6830127f - 0.01f, 0.2f), turn(0.0f, 0.0f, 1.0f, RB_PI / 6.0f));
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 2);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 0.0f);
    for (int s = -1; s <= 1; s += 2) {
        int k = find_point(m, rb_f3(0.3f - 0.1830127f, 0.495f, 0.2f + 0.5f * (float)s), 2e-5f);
        assert_float_equal(m.points[k].separation, -0.01f, 2e-5f);
    }
    assert_ids_unique(m);
}

static void test_box_balanced_on_a_vertex_gives_one_point_under_the_vertex(void **state)
{
    (void)state;
    // B (unit cube) turned so that its diagonal (1,1,1)/sqrt3 points up: the corner (-,-,-) is straight
    // below the centre at distance sqrt(3)/2 = 0.8660254. Centre (0.1, 0.5 + 0.8660254 - 0.01, 0.2):
    // the corner sinks 0.01 into the slab's top, every other corner is well above it. One point at
    // (0.1, 0.495, 0.2), separation -0.01, normal +y.
    float s3 = 1.0f / sqrtf(3.0f);
    rb_float4 q = rotation_between(rb_f3(s3, s3, s3), rb_f3(0.0f, 1.0f, 0.0f));
    rb_geom a = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(2.0f, 0.5f, 2.0f));
    rb_geom b = cube_at(rb_f3(0.1f, 0.5f + 0.8660254f - 0.01f, 0.2f), q);
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 0.0f);
    find_point(m, rb_f3(0.1f, 0.495f, 0.2f), 2e-5f);
    assert_float_equal(m.points[0].separation, -0.01f, 2e-5f);
}

// ---- edges ----

static void test_crossed_edges_give_one_point_midway_between_them(void **state)
{
    (void)state;
    // A (unit cube) turned 45 deg about z: its top is an edge along z at y = sqrt(2)/2 = 0.7071068.
    // B turned 45 deg about x: its bottom is an edge along x, sqrt(2)/2 below its centre. B's centre at
    // (0.1, 2 * 0.7071068 - 0.01, -0.15): the edges cross at (0, ., -0.15) and overlap 0.01 along y,
    // the least penetration of all 15 axes (the face axes of both boxes overlap by about 0.35 or more).
    // Edge case: normal +y (A to B), one point midway: (0, 0.7071068 - 0.005, -0.15).
    rb_geom a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 0.0f, 1.0f, 0.25f * RB_PI));
    rb_geom b =
        cube_at(rb_f3(0.1f, 1.4142136f - 0.01f, -0.15f), turn(1.0f, 0.0f, 0.0f, 0.25f * RB_PI));
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 1e-5f);
    find_point(m, rb_f3(0.0f, 0.7071068f - 0.005f, -0.15f), 2e-5f);
    assert_float_equal(m.points[0].separation, -0.01f, 2e-5f);
    assert_true((m.points[0].id & 0x8000u) != 0u);
}

static void test_crossed_edges_with_b_below_a_give_a_downward_normal(void **state)
{
    (void)state;
    // The previous pair mirrored: B's top edge (along x) 0.01 into A's bottom edge (along z). The
    // normal still points from A to B: (0, -1, 0); point (0, -(0.7071068 - 0.005), 0.15).
    rb_geom a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 0.0f, 1.0f, 0.25f * RB_PI));
    rb_geom b =
        cube_at(rb_f3(-0.1f, -(1.4142136f - 0.01f), 0.15f), turn(1.0f, 0.0f, 0.0f, 0.25f * RB_PI));
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, -1.0f, 0.0f, 1e-5f);
    find_point(m, rb_f3(0.0f, -(0.7071068f - 0.005f), 0.15f), 2e-5f);
    assert_float_equal(m.points[0].separation, -0.01f, 2e-5f);
}

static void test_edge_resting_along_a_parallel_face_edge_gives_two_points(void **state)
{
    (void)state;
    // A (unit cube) turned 45 deg about z: top edge along z at y = 0.7071068, parallel to the edges of
    // B's bottom face. B (unit cube, not turned) rests on it, 0.01 deep: centre y = 0.7071068 + 0.49.
    // The edge axis z_A x x_B = +y separates as much as B's bottom face; faces win the tie. B's face is
    // the reference (normal -y from B, so +y from A to B); A's incident face is a 45 deg face whose top
    // edge, clipped to B's footprint z in [-0.5, 0.5], gives (0, 0.7071068 - 0.005, +-0.5). Its lower
    // corners, clipped at x = +-0.5, are 0.49 below B: beyond the margin.
    rb_geom a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 0.0f, 1.0f, 0.25f * RB_PI));
    rb_geom b = cube_at(rb_f3(0.0f, 0.7071068f + 0.49f, 0.0f), rb_quat_identity());
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 2);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 0.0f);
    for (int s = -1; s <= 1; s += 2) {
        int k = find_point(m, rb_f3(0.0f, 0.7071068f - 0.005f, 0.5f * (float)s), 2e-5f);
        assert_float_equal(m.points[k].separation, -0.01f, 2e-5f);
        assert_int_not_equal(m.points[k].id & 0x4000u, 0u); // reference face on B
    }
    assert_ids_unique(m);
}

static void test_parallel_edges_touching_give_finite_deterministic_contact(void **state)
{
    (void)state;
    // Two unit cubes both turned 45 deg about z, B stacked 0.01 deep onto A's top edge: two parallel
    // edges along z (their cross product is zero and is skipped). In this cross-section (two squares
    // corner to corner) the least overlap is along a 45 deg face normal: |d . n| - 1 with
    // d . n = (1.4142136 - 0.01) / sqrt2, i.e. -0.0070711. The reference and incident faces are parallel
    // and overlap in a sliver 0.0071 wide along the shared edge line (x = 0, y = 0.7071068 - 0.005),
    // z in [-0.5, 0.5]: four points, two at each end, all 0.0070711 deep.
    rb_geom a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 0.0f, 1.0f, 0.25f * RB_PI));
    rb_geom b = cube_at(rb_f3(0.0f, 1.4142136f - 0.01f, 0.0f), turn(0.0f, 0.0f, 1.0f, 0.25f * RB_PI));
    rb_manifold m1 = collide(a, b);
    rb_manifold m2 = collide(a, b);
    assert_memory_equal(&m1, &m2, sizeof m1);
    assert_int_equal(m1.count, 4);
    assert_float_equal(fabsf(m1.normal.x), 0.7071068f, 1e-5f);
    assert_float_equal(m1.normal.y, 0.7071068f, 1e-5f);
    for (int i = 0; i < m1.count; ++i) {
        assert_float_equal(m1.points[i].separation, -0.0070711f, 2e-5f);
        assert_float_equal(m1.points[i].point.x, 0.0f, 0.006f);
        assert_float_equal(m1.points[i].point.y, 0.7071068f - 0.005f, 0.006f);
        assert_float_equal(fabsf(m1.points[i].point.z), 0.5f, 1e-5f);
    }
    assert_ids_unique(m1);
}

// ---- margin ----

static void test_boxes_farther_apart_than_the_margin_have_no_contact(void **state)
{
    (void)state;
    // Unit cubes 1.03 apart: a gap of 0.03 > margin 0.02.
    rb_geom a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity());
    rb_geom b = cube_at(rb_f3(0.2f, 1.03f, 0.0f), rb_quat_identity());
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 0);
    // also across an edge: edges crossing 0.03 apart
    a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 0.0f, 1.0f, 0.25f * RB_PI));
    b = cube_at(rb_f3(0.0f, 1.4142136f + 0.03f, 0.0f), turn(1.0f, 0.0f, 0.0f, 0.25f * RB_PI));
    m = collide(a, b);
    assert_int_equal(m.count, 0);
}

static void test_boxes_closer_than_the_margin_give_speculative_points(void **state)
{
    (void)state;
    // Cube B (half 0.25) hovering 2^-7 = 0.0078125 above the slab (margin 0.02): four points with
    // separation +0.0078125, midway in the gap at y = 0.5 + 0.00390625, at B's bottom corners.
    rb_geom a = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(2.0f, 0.5f, 2.0f));
    rb_geom b = box_at(rb_f3(-1.0f, 0.7578125f, 0.5f), rb_quat_identity(), rb_f3(0.25f, 0.25f, 0.25f));
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 4);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 0.0f);
    for (int i = 0; i < 4; ++i) {
        int k = find_point(m, rb_f3((i & 1) ? -0.75f : -1.25f, 0.50390625f, (i & 2) ? 0.75f : 0.25f), 0.0f);
        assert_float_equal(m.points[k].separation, 0.0078125f, 0.0f);
    }
    // edges crossing with a 0.01 gap: one speculative point in the middle of the gap
    a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 0.0f, 1.0f, 0.25f * RB_PI));
    b = cube_at(rb_f3(0.0f, 1.4142136f + 0.01f, 0.0f), turn(1.0f, 0.0f, 0.0f, 0.25f * RB_PI));
    m = collide(a, b);
    assert_int_equal(m.count, 1);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 1e-5f);
    assert_float_equal(m.points[0].separation, 0.01f, 2e-5f);
    find_point(m, rb_f3(0.0f, 0.7071068f + 0.005f, 0.0f), 2e-5f);
}

// ---- deep and degenerate ----

static void test_deeply_overlapping_boxes_separate_along_the_least_penetration_axis(void **state)
{
    (void)state;
    // Unit cubes, B's centre at (0.05, 0.1, 0): overlap 0.95 along x, 0.9 along y, 1 along z. The least
    // penetration is y: normal +y, depth 0.9. B's bottom face (y = -0.4) clipped to A's top face
    // (x in [-0.45, 0.5] after clipping, z in [-0.5, 0.5]); each point 0.9 below A's top face, moved up
    // by 0.45: y = -0.4 + 0.45 = 0.05.
    rb_geom a = cube_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity());
    rb_geom b = cube_at(rb_f3(0.05f, 0.1f, 0.0f), rb_quat_identity());
    rb_manifold m = collide(a, b);
    assert_int_equal(m.count, 4);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 0.0f);
    for (int i = 0; i < 4; ++i) {
        int k = find_point(m, rb_f3((i & 1) ? 0.5f : -0.45f, 0.05f, (i & 2) ? 0.5f : -0.5f), 1e-6f);
        assert_float_equal(m.points[k].separation, -0.9f, 1e-6f);
    }
    // B also turned 0.2 rad about y: y stays the least-penetration axis (x and z now overlap more)
    b.xf.q = turn(0.0f, 1.0f, 0.0f, 0.2f);
    m = collide(a, b);
    assert_true(m.count >= 1);
    assert_normal(m, 0.0f, 1.0f, 0.0f, 1e-6f);
    for (int i = 0; i < m.count; ++i)
        assert_float_equal(m.points[i].separation, -0.9f, 1e-5f);
}

static void test_coincident_centres_give_a_deterministic_finite_contact(void **state)
{
    (void)state;
    // Same pose: every axis overlaps by 1; A's x face (the first tested) wins the tie and the zero
    // projection counts as positive, so the normal is +x. B's -x face (x = -0.5) is the incident face:
    // four points 1 deep, moved back 0.5, at x = 0.
    rb_geom a = cube_at(rb_f3(1.0f, 2.0f, 3.0f), rb_quat_identity());
    rb_manifold m1 = collide(a, a);
    rb_manifold m2 = collide(a, a);
    assert_memory_equal(&m1, &m2, sizeof m1);
    assert_int_equal(m1.count, 4);
    assert_normal(m1, 1.0f, 0.0f, 0.0f, 0.0f);
    for (int i = 0; i < 4; ++i) {
        assert_float_equal(m1.points[i].separation, -1.0f, 0.0f);
        assert_float_equal(m1.points[i].point.x, 1.0f, 0.0f);
        assert_true(rb_is_finite3(m1.points[i].point));
    }
    // a flat slab and a cube, same centre, B turned: least overlap along y (0.5 + 0.5)
    rb_geom s = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(2.0f, 0.5f, 2.0f));
    rb_geom c = cube_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 1.0f, 0.0f, 0.3f));
    m1 = collide(s, c);
    m2 = collide(s, c);
    assert_memory_equal(&m1, &m2, sizeof m1);
    assert_int_equal(m1.count, 4);
    assert_normal(m1, 0.0f, 1.0f, 0.0f, 1e-6f);
    for (int i = 0; i < 4; ++i)
        assert_float_equal(m1.points[i].separation, -1.0f, 1e-6f);
}

// ---- symmetry and ids ----

static void assert_swapped(rb_geom a, rb_geom b)
{
    rb_manifold ab = collide(a, b), ba = collide(b, a);
    assert_int_equal(ab.count, ba.count);
    assert_true(ab.count > 0);
    assert_float_equal(ba.normal.x, -ab.normal.x, 1e-6f);
    assert_float_equal(ba.normal.y, -ab.normal.y, 1e-6f);
    assert_float_equal(ba.normal.z, -ab.normal.z, 1e-6f);
    for (int i = 0; i < ab.count; ++i) {
        int k = find_point(ba, ab.points[i].point, 2e-5f);
        assert_float_equal(ba.points[k].separation, ab.points[i].separation, 2e-5f);
    }
}

static void test_swapping_the_boxes_flips_the_normal_and_keeps_the_points(void **state)
{
    (void)state;
    // Swapped, the other box's face becomes the reference (or the edges swap roles); the contact is
    // the same: same points and separations, opposite normal.
    rb_geom slab = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(2.0f, 0.5f, 2.0f));
    assert_swapped(slab, cube_at(rb_f3(0.25f, 0.99f, -0.5f), rb_quat_identity()));
    assert_swapped(slab, cube_at(rb_f3(0.3f, 0.5f + 0.6830127f - 0.01f, 0.2f), turn(0.0f, 0.0f, 1.0f, RB_PI / 6.0f)));
    rb_geom diamond = cube_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 0.0f, 1.0f, 0.25f * RB_PI));
    assert_swapped(diamond, cube_at(rb_f3(0.1f, 1.4142136f - 0.01f, -0.15f), turn(1.0f, 0.0f, 0.0f, 0.25f * RB_PI)));
    assert_swapped(diamond, cube_at(rb_f3(0.0f, 0.7071068f + 0.49f, 0.0f), rb_quat_identity()));
}

static void assert_ids_stable(rb_geom a, rb_geom b)
{
    // 1e-4 m shift and 1e-3 rad turn: the same features touch, so the same ids come back.
    rb_manifold m0 = collide(a, b);
    assert_true(m0.count > 0);
    assert_ids_unique(m0);
    for (int i = 0; i < NUDGES; ++i)
        assert_same_ids(m0, collide(a, nudged(b, i)));
}

static void test_feature_ids_survive_a_tiny_perturbation_and_are_unique(void **state)
{
    (void)state;
    rb_geom slab = box_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity(), rb_f3(2.0f, 0.5f, 2.0f));
    // resting on a face, box corners (vertex ids)
    assert_ids_stable(slab, cube_at(rb_f3(0.25f, 0.99f, -0.5f), rb_quat_identity()));
    // overhanging the slab's corner: two points are cut by A's side planes (edge x plane ids)
    assert_ids_stable(slab, cube_at(rb_f3(1.8f, 0.99f, 1.7f), rb_quat_identity()));
    // tilted onto an edge
    assert_ids_stable(slab,
                      cube_at(rb_f3(0.3f, 0.5f + 0.6830127f - 0.01f, 0.2f), turn(0.0f, 0.0f, 1.0f, RB_PI / 6.0f)));
    // balanced on a vertex: the three faces around it are equally anti-parallel to the normal, so
    // the incident face flips under the perturbation; the touching feature (the vertex) does not
    float s3 = 1.0f / sqrtf(3.0f);
    assert_ids_stable(slab, cube_at(rb_f3(0.1f, 0.5f + 0.8660254f - 0.01f, 0.2f),
                                    rotation_between(rb_f3(s3, s3, s3), rb_f3(0.0f, 1.0f, 0.0f))));
    // crossed edges
    rb_geom diamond = cube_at(rb_f3(0.0f, 0.0f, 0.0f), turn(0.0f, 0.0f, 1.0f, 0.25f * RB_PI));
    assert_ids_stable(diamond, cube_at(rb_f3(0.1f, 1.4142136f - 0.01f, -0.15f), turn(1.0f, 0.0f, 0.0f, 0.25f * RB_PI)));
    // identical cubes turned 45 deg: the octagon's 8 corners are all clip points; the ids of the 8
    // candidates are distinct and the kept 4 must be too
    rb_manifold m = collide(cube_at(rb_f3(0.0f, 0.0f, 0.0f), rb_quat_identity()),
                            cube_at(rb_f3(0.0f, 0.99f, 0.0f), turn(0.0f, 1.0f, 0.0f, 0.25f * RB_PI)));
    assert_ids_unique(m);
}

// ---- fuzz ----

// The next random pair, half extents in [lo, hi]: half placed anywhere within reach, half (odd `iter`)
// slid along a random direction to an SAT separation in [-0.03, 0.03] (resting and speculative
// contacts; the window shrinks with boxes smaller than 5 cm).
static void random_pair(int iter, float lo_size, float hi_size, rb_geom *a, rb_geom *b)
{
    rb_float3 ha = rb_f3(frand(lo_size, hi_size), frand(lo_size, hi_size), frand(lo_size, hi_size));
    rb_float3 hb = rb_f3(frand(lo_size, hi_size), frand(lo_size, hi_size), frand(lo_size, hi_size));
    float reach = 0.9f * (rb_len(ha) + rb_len(hb));
    rb_float3 pa = rb_f3(frand(-5.0f, 5.0f), frand(-5.0f, 5.0f), frand(-5.0f, 5.0f));
    rb_float3 off = rb_f3(frand(-reach, reach), frand(-reach, reach), frand(-reach, reach));
    *a = box_at(pa, random_rotation_often_aligned(), ha);
    *b = box_at(rb_add(pa, off), random_rotation_often_aligned(), hb);
    if (iter & 1) {
        // the SAT separation grows monotonically along the ray: bisect for the target
        float window = 0.03f * fminf(1.0f, 20.0f * lo_size);
        float target = frand(-window, window), lo = 0.0f, hi = 2.0f * reach / (rb_len(off) + 1e-6f);
        for (int k = 0; k < 40; ++k) {
            float t = 0.5f * (lo + hi);
            b->xf.p = rb_mad(pa, t, off);
            if (sat_separation(*a, *b) < (double)target)
                lo = t;
            else
                hi = t;
        }
        b->xf.p = rb_mad(pa, lo, off);
    }
}

typedef struct fuzz_stats {
    int contacts, deep, speculative, edges;
} fuzz_stats;

// Checks the invariants on `count` random pairs drawn from `seed` (half extents in [lo_size, hi_size]):
// finite output; unit normal pointing
// from A's side to B's (n . (cB - cA) >= 0); at most 4 points with distinct ids; no contact when the
// independent SAT separates the boxes by more than the margin, some contact when they overlap by more
// than 1 mm; every separation < margin and no deeper than the least penetration allows (the axis
// choice may trade up to its tolerances, 2.5 mm (or a tenth of the smallest half extent) + 5% (edge)
// and + 2% (B's face)); every point
// midway between the surfaces: point -+ separation/2 along the normal lies on A / on B (0.1 mm). (The
// point itself need not be inside both boxes: half the depth along the normal from a tilted incident
// vertex can leave the incident box through a neighbouring face; it stays within |separation|/2.)
// Speculative edge-edge points are checked apart (see below).
static fuzz_stats fuzz_box_pairs(uint32_t seed, int count, float lo_size, float hi_size)
{
    fuzz_stats st = {0, 0, 0, 0};
    rng_state = seed;
    for (int iter = 0; iter < count; ++iter) {
        rb_geom a, b;
        random_pair(iter, lo_size, hi_size, &a, &b);
        rb_manifold m = collide(a, b);
        double sat = sat_separation(a, b);

        assert_true(m.count >= 0 && m.count <= 4);
        assert_true(rb_is_finite3(m.normal));
        assert_float_equal(rb_len(m.normal), 1.0f, 1e-5f);
        if (sat > (double)MARGIN + 1e-4)
            assert_int_equal(m.count, 0);
        if (sat < -1e-3 && m.count == 0)
            fail_msg("seed %u iteration %d: boxes overlap by %g but no contact", seed, iter, -sat);
        if (m.count == 0)
            continue;
        ++st.contacts;
        st.deep += sat < -0.1;
        st.speculative += sat > 0.0;
        st.edges += (m.points[0].id & 0x8000u) != 0u;
        assert_true(rb_dot(m.normal, rb_sub(b.xf.p, a.xf.p)) >= -1e-5f);
        assert_ids_unique(m);
        // the chosen axis f: edge kept out while sat <= f + t + 0.05 |f|, A's face kept while
        // sB <= sA + t + 0.02 |sA|, with t = min(2.5 mm, smallest half extent / 10); for f < 0 together
        // f >= sat - 2 t - (0.05/0.95 + 0.02/0.98) |sat|
        float hmin =
            fminf(fminf(fminf(a.params.x, a.params.y), a.params.z), fminf(fminf(b.params.x, b.params.y), b.params.z));
        double t = (double)fminf(0.0025f, 0.1f * hmin);
        double allowed = sat - 2.0 * t - 0.08 * fabs(sat) - 1e-4;
        for (int i = 0; i < m.count; ++i) {
            rb_manifold_point p = m.points[i];
            assert_true(rb_is_finite3(p.point));
            assert_true(p.separation < MARGIN);
            if ((double)p.separation < allowed)
                fail_msg("seed %u iteration %d: point %d separation %g deeper than SAT %g allows", seed, iter, i,
                         (double)p.separation, sat);
            double da = point_box_distance(a, p.point), db = point_box_distance(b, p.point);
            if ((p.id & 0x8000u) != 0u && p.separation > 0.0f) {
                // separated edges whose closest points need not be across the axis (the closest
                // features may be a vertex and an edge): the point is between the edges' closest
                // points, which are within the margin of each other, and the separation is a lower
                // bound of the gap
                if (da > 0.5 * (double)MARGIN + 1e-4 || db > 0.5 * (double)MARGIN + 1e-4 ||
                    da + db < (double)p.separation - 1e-4)
                    fail_msg("seed %u iteration %d: speculative edge point %g from A, %g from B, sep %g", seed, iter,
                             da, db, (double)p.separation);
                continue;
            }
            rb_float3 on_a = rb_mad(p.point, -0.5f * p.separation, m.normal);
            rb_float3 on_b = rb_mad(p.point, 0.5f * p.separation, m.normal);
            double sa = point_box_distance(a, on_a), sb = point_box_distance(b, on_b);
            if (sa > 1e-4 || sb > 1e-4)
                fail_msg("seed %u iteration %d: point %d (sep %g): surface points %g from A and %g from B", seed, iter,
                         i, (double)p.separation, sa, sb);
            double slack = 1e-4 + 0.5 * fabs((double)p.separation);
            assert_true(da <= slack && db <= slack);
        }
    }
    return st;
}

static void test_random_box_pairs_keep_the_manifold_invariants(void **state)
{
    (void)state;
    fuzz_stats st = fuzz_box_pairs(12345u, 4000, 0.05f, 1.0f);
    // the sample covers the cases it is meant to
    print_message("%d contacts, %d deep, %d speculative, %d edge-edge\n", st.contacts, st.deep, st.speculative,
                  st.edges);
    assert_true(st.contacts > 2000 && st.deep > 200 && st.speculative > 200 && st.edges > 200);
}

static void test_random_pairs_of_centimetre_boxes_keep_the_manifold_invariants(void **state)
{
    (void)state;
    // Boxes of 5 mm to 5 cm half extents, smaller than the 2.5 mm axis-choice tolerance would allow:
    // the tolerance shrinks with them, or a face is kept over a far better edge pair.
    fuzz_stats st = fuzz_box_pairs(777u, 4000, 0.005f, 0.05f);
    print_message("%d contacts, %d deep, %d speculative, %d edge-edge\n", st.contacts, st.deep, st.speculative,
                  st.edges);
    assert_true(st.contacts > 2000 && st.speculative > 200 && st.edges > 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_resting_flat_on_bigger_box_gives_its_four_bottom_corners),
        cmocka_unit_test(test_identical_boxes_stacked_exactly_use_the_lower_box_face),
        cmocka_unit_test(test_box_turned_45_degrees_about_the_normal_gives_four_points_of_the_octagon),
        cmocka_unit_test(test_box_tilted_onto_an_edge_gives_two_points_along_that_edge),
        cmocka_unit_test(test_box_balanced_on_a_vertex_gives_one_point_under_the_vertex),
        cmocka_unit_test(test_crossed_edges_give_one_point_midway_between_them),
        cmocka_unit_test(test_crossed_edges_with_b_below_a_give_a_downward_normal),
        cmocka_unit_test(test_edge_resting_along_a_parallel_face_edge_gives_two_points),
        cmocka_unit_test(test_parallel_edges_touching_give_finite_deterministic_contact),
        cmocka_unit_test(test_boxes_farther_apart_than_the_margin_have_no_contact),
        cmocka_unit_test(test_boxes_closer_than_the_margin_give_speculative_points),
        cmocka_unit_test(test_deeply_overlapping_boxes_separate_along_the_least_penetration_axis),
        cmocka_unit_test(test_coincident_centres_give_a_deterministic_finite_contact),
        cmocka_unit_test(test_swapping_the_boxes_flips_the_normal_and_keeps_the_points),
        cmocka_unit_test(test_feature_ids_survive_a_tiny_perturbation_and_are_unique),
        cmocka_unit_test(test_random_box_pairs_keep_the_manifold_invariants),
        cmocka_unit_test(test_random_pairs_of_centimetre_boxes_keep_the_manifold_invariants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
