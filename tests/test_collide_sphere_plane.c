// rb_collide_sphere_plane: hand-computed contacts, rigid motion, degenerate input, and a seeded
// fuzz against a brute-force distance (the sphere surface sampled densely).
#include "kernels/collide_sphere_plane.h"
#include "collide_test_util.h"

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
    assert_contact_moves_rigidly(rb_collide_sphere_plane, a, b, 0.1f, &m0, 50, 2e-5f);
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
