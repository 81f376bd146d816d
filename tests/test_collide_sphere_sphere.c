// rb_collide_sphere_sphere: hand-computed contacts, invariance under rigid motion, degenerate
// input, and a seeded fuzz against an independent signed distance.
#include "kernels/collide_sphere_sphere.h"
#include "collide_test_util.h"

// ---- hand-computed contacts ----

static rb_geom ball(float x, float y, float z, float r) { return sphere_at(rb_f3(x, y, z), r); }

static void test_spheres_apart_by_more_than_the_margin_give_no_contact(void **state)
{
    (void)state;
    // centres 2 apart, radii 1 and 0.5: separation 2 - 1.5 = 0.5 >= margin 0.1
    rb_geom a = ball(0.0f, 0.0f, 0.0f, 1.0f);
    rb_geom b = ball(2.0f, 0.0f, 0.0f, 0.5f);
    rb_manifold m = {0};
    rb_collide_sphere_sphere(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 0);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 1e-6f);
}

static void test_spheres_within_the_margin_give_a_speculative_contact(void **state)
{
    (void)state;
    // centres 1.55 apart: separation 1.55 - 1.5 = 0.05 < 0.1; A's surface at x = 1, B's at 1.05,
    // point midway at x = 1.025
    rb_geom a = ball(0.0f, 0.0f, 0.0f, 1.0f);
    rb_geom b = ball(1.55f, 0.0f, 0.0f, 0.5f);
    rb_manifold m = {0};
    rb_collide_sphere_sphere(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, 0.05f, 1e-6f);
    assert_vec_equal(m.points[0].point, 1.025f, 0.0f, 0.0f, 1e-6f);
    assert_int_equal(m.points[0].id, 0);
}

static void test_touching_spheres_give_no_contact_with_zero_margin(void **state)
{
    (void)state;
    // separation exactly 0: a point is emitted only while separation < margin
    rb_geom a = ball(0.0f, 0.0f, 0.0f, 1.0f);
    rb_geom b = ball(0.0f, 0.0f, 2.0f, 1.0f);
    rb_manifold m = {0};
    rb_collide_sphere_sphere(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 0);
    rb_collide_sphere_sphere(&a, &b, 1e-4f, &m);
    assert_int_equal(m.count, 1);
    assert_float_equal(m.points[0].separation, 0.0f, 1e-7f);
    assert_vec_equal(m.points[0].point, 0.0f, 0.0f, 1.0f, 1e-7f);
}

static void test_overlapping_spheres_give_negative_separation_and_a_midway_point(void **state)
{
    (void)state;
    // unit spheres 1.5 apart along y: separation 1.5 - 2 = -0.5; A's surface at y = 1, B's at
    // y = 0.5, midway y = 0.75
    rb_geom a = ball(0.0f, 0.0f, 0.0f, 1.0f);
    rb_geom b = ball(0.0f, 1.5f, 0.0f, 1.0f);
    rb_manifold m = {0};
    rb_collide_sphere_sphere(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -0.5f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, 0.75f, 0.0f, 1e-6f);
}

static void test_deep_penetration_keeps_the_normal_on_the_centre_line(void **state)
{
    (void)state;
    // B (r 0.5) at (0.3, 0, -0.4), inside A (r 2): |d| = 0.5, n = (0.6, 0, -0.8),
    // separation 0.5 - 2.5 = -2; A's surface 2n = (1.2, 0, -1.6), B's cB - 0.5n = (0, 0, 0),
    // midway (0.6, 0, -0.8)
    rb_geom a = ball(0.0f, 0.0f, 0.0f, 2.0f);
    rb_geom b = ball(0.3f, 0.0f, -0.4f, 0.5f);
    rb_manifold m = {0};
    rb_collide_sphere_sphere(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.6f, 0.0f, -0.8f, 1e-6f);
    assert_float_equal(m.points[0].separation, -2.0f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.6f, 0.0f, -0.8f, 1e-6f);
}

static void test_coincident_centres_give_the_documented_up_normal(void **state)
{
    (void)state;
    // both centres at (3, 2, 1): normal (0, 1, 0) by convention; separation 0 - 1.5 = -1.5;
    // A's surface (3, 3, 1), B's (3, 1.5, 1), midway (3, 2.25, 1)
    rb_geom a = ball(3.0f, 2.0f, 1.0f, 1.0f);
    rb_geom b = ball(3.0f, 2.0f, 1.0f, 0.5f);
    rb_manifold m = {0};
    rb_collide_sphere_sphere(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 1);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 0.0f);
    assert_float_equal(m.points[0].separation, -1.5f, 1e-6f);
    assert_vec_equal(m.points[0].point, 3.0f, 2.25f, 1.0f, 1e-6f);
    assert_true(rb_is_finite3(m.points[0].point));
}

static void test_nearly_coincident_centres_give_a_finite_unit_normal(void **state)
{
    (void)state;
    // centres 1e-16 apart (squared 1e-32): below the coincidence threshold 1e-30, the fallback
    // (0, 1, 0) is used; 1e-10 apart: a proper direction, +x
    rb_geom a = ball(0.0f, 0.0f, 0.0f, 1.0f);
    rb_geom b = ball(1e-16f, 0.0f, 0.0f, 1.0f);
    rb_manifold m = {0};
    rb_collide_sphere_sphere(&a, &b, 0.0f, &m);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 0.0f);
    a = ball(0.0f, 0.0f, 0.0f, 1.0f);
    b = ball(1e-10f, 0.0f, 0.0f, 1.0f);
    rb_collide_sphere_sphere(&a, &b, 0.0f, &m);
    assert_vec_equal(m.normal, 1.0f, 0.0f, 0.0f, 1e-6f);
    assert_float_equal(m.points[0].separation, -2.0f, 1e-6f);
}

static void test_swapping_the_spheres_negates_the_normal(void **state)
{
    (void)state;
    // the same contact seen from B: normal reversed, same point, separation and id
    rb_geom a = ball(0.1f, -0.2f, 0.3f, 0.7f);
    rb_geom b = ball(0.9f, 0.4f, -0.1f, 0.6f);
    rb_manifold ab = {0}, ba = {0};
    rb_collide_sphere_sphere(&a, &b, 0.05f, &ab);
    rb_collide_sphere_sphere(&b, &a, 0.05f, &ba);
    assert_int_equal(ab.count, 1);
    assert_int_equal(ba.count, 1);
    assert_vec_equal(ba.normal, -ab.normal.x, -ab.normal.y, -ab.normal.z, 1e-6f);
    assert_vec_equal(ba.points[0].point, ab.points[0].point.x, ab.points[0].point.y, ab.points[0].point.z, 1e-6f);
    assert_float_equal(ba.points[0].separation, ab.points[0].separation, 1e-6f);
    assert_int_equal(ba.points[0].id, ab.points[0].id);
}

static void test_contact_moves_with_a_rigidly_moved_configuration(void **state)
{
    (void)state;
    rng_state = 7u;
    rb_geom a = ball(0.0f, 0.0f, 0.0f, 1.0f);
    rb_geom b = ball(0.8f, 1.1f, 0.3f, 0.5f);
    rb_manifold m0 = {0};
    rb_collide_sphere_sphere(&a, &b, 0.1f, &m0);
    assert_int_equal(m0.count, 1);
    assert_contact_moves_rigidly(rb_collide_sphere_sphere, a, b, 0.1f, &m0, 50, 2e-5f);
}

static void test_feature_id_is_stable_under_tiny_perturbations(void **state)
{
    (void)state;
    rng_state = 11u;
    rb_geom a = ball(0.0f, 0.0f, 0.0f, 1.0f);
    for (int i = 0; i < 100; ++i) {
        rb_geom b = ball(0.0f + frand(-1e-4f, 1e-4f), 1.9f + frand(-1e-4f, 1e-4f), frand(-1e-4f, 1e-4f), 1.0f);
        rb_manifold m = {0};
        rb_collide_sphere_sphere(&a, &b, 0.01f, &m);
        assert_int_equal(m.count, 1);
        assert_int_equal(m.points[0].id, 0);
        assert_float_equal(m.normal.y, 1.0f, 1e-6f);
    }
}

// ---- fuzz ----

static void test_random_pairs_agree_with_an_independent_signed_distance(void **state)
{
    (void)state;
    // 3000 seeded pairs of spheres, centres within +-1.5 of each other: the separation equals the
    // reference distance (B's SDF at A's centre, less A's radius), the normal reaches it as a gap
    // between support planes, and the point lies midway between the surfaces
    rng_state = 2024u;
    const float margin = 0.05f;
    const double tol = 2e-5;
    int contacts = 0;
    for (int i = 0; i < 3000; ++i) {
        rb_geom a = ball(frand(-3.0f, 3.0f), frand(-3.0f, 3.0f), frand(-3.0f, 3.0f), frand(0.05f, 1.0f));
        rb_geom b = ball(a.xf.p.x + frand(-1.5f, 1.5f), a.xf.p.y + frand(-1.5f, 1.5f), a.xf.p.z + frand(-1.5f, 1.5f),
                         frand(0.05f, 1.0f));
        rb_manifold m = {0};
        rb_collide_sphere_sphere(&a, &b, margin, &m);
        contacts += check_manifold(&a, &b, margin, &m, brute_signed_distance(&a, &b), tol, tol, 1);
    }
    assert_true(contacts > 300);  // the fuzz does exercise contacts
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spheres_apart_by_more_than_the_margin_give_no_contact),
        cmocka_unit_test(test_spheres_within_the_margin_give_a_speculative_contact),
        cmocka_unit_test(test_touching_spheres_give_no_contact_with_zero_margin),
        cmocka_unit_test(test_overlapping_spheres_give_negative_separation_and_a_midway_point),
        cmocka_unit_test(test_deep_penetration_keeps_the_normal_on_the_centre_line),
        cmocka_unit_test(test_coincident_centres_give_the_documented_up_normal),
        cmocka_unit_test(test_nearly_coincident_centres_give_a_finite_unit_normal),
        cmocka_unit_test(test_swapping_the_spheres_negates_the_normal),
        cmocka_unit_test(test_contact_moves_with_a_rigidly_moved_configuration),
        cmocka_unit_test(test_feature_id_is_stable_under_tiny_perturbations),
        cmocka_unit_test(test_random_pairs_agree_with_an_independent_signed_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
