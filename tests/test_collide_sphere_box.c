// rb_collide_sphere_box: hand-computed contacts (face, edge, vertex, centre inside), rigid motion,
// degenerate input, and a seeded fuzz against an independent signed distance.
#include "kernels/collide_sphere_box.h"
#include "collide_test_util.h"

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
        assert_contact_moves_rigidly(rb_collide_sphere_box, a, b, 0.1f, &m0, 50, 5e-5f);
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
