// rb_collide_sphere_capsule: hand-computed contacts, centre on the axis, zero-length capsules,
// rigid motion, and a seeded fuzz against an independent signed distance.
#include "kernels/collide_sphere_capsule.h"
#include "kernels/collide_sphere_sphere.h"
#include "collide_test_util.h"

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
        assert_contact_moves_rigidly(rb_collide_sphere_capsule, a, b, 0.1f, &m0, 50, 5e-5f);
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
