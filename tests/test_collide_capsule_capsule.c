// rb_collide_capsule_capsule: crossing, end-to-end and parallel capsules (two points), degenerate
// axes, rigid motion, stable ids, and a seeded fuzz against a brute-force signed distance.
#include "kernels/collide_capsule_capsule.h"
#include "kernels/collide_sphere_capsule.h"
#include "kernels/collide_sphere_sphere.h"
#include "collide_test_util.h"

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
        assert_contact_moves_rigidly(rb_collide_capsule_capsule, pairs[k][0], pairs[k][1], 0.1f, &m0, 50, 5e-5f);
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
