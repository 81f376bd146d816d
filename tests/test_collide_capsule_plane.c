// rb_collide_capsule_plane: one or two end points, hand-computed contacts, rigid motion, degenerate
// input, and a seeded fuzz against a brute-force distance (the capsule surface sampled densely).
#include "kernels/collide_capsule_plane.h"
#include "kernels/collide_sphere_plane.h"
#include "collide_test_util.h"

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
        assert_contact_moves_rigidly(rb_collide_capsule_plane, caps[k], b, 0.1f, &m0, 50, 5e-5f);
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
