// Contact readback (rb_world_get_contact_count / rb_world_get_contacts): what a user sees of the
// last step's contacts — bodies and shapes, point, normal (from A to B), depth, impulses — and the
// range checks of the call.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "physics_util.h"


// The expected normal for a contact between a body and the ground: the plane's surface normal is
// (0, 1, 0), and the contact normal points from A to B, so it is +y when the ground is A and −y
// when the ground is B.
static rb_vec3 expected_ground_normal(const rb_contact *c, rb_body_id ground)
{
    return rb_body_equal(c->body_a, ground) ? v3(0.0f, 1.0f, 0.0f) : v3(0.0f, -1.0f, 0.0f);
}

static void assert_shapes_belong_to_bodies(const rb_contact *c)
{
    rb_body_id ba, bb;
    RB_CHECK(rb_shape_get_body(c->shape_a, &ba));
    RB_CHECK(rb_shape_get_body(c->shape_b, &bb));
    assert_true(rb_body_equal(ba, c->body_a));
    assert_true(rb_body_equal(bb, c->body_b));
}

static void test_sphere_resting_on_the_ground_reports_one_contact_under_it(void **state)
{
    (void)state;
    // A 1 kg sphere of radius 0.5 resting at (1.5, 0.5, −2), sleeping off, after 1 s:
    //  - one contact, between the sphere and the ground (either order), shapes matching bodies;
    //  - normal ±(0, 1, 0) as set by the order (from A to B), to float precision;
    //  - depth in [0, d]: the speculative contact closes any gap, the split impulse removes any
    //    penetration beyond the slop (batched, d = 0.5 mm), penetration correction any beyond its
    //    threshold (sequential, d = 3 mm); 1e-5 m for rounding;
    //  - point midway between the surfaces: (1.5, −depth/2, −2);
    //  - normal impulse = m g h_s = 9.81/60 = 0.1635 N·s per substep of h_s (one point, static plane:
    //    solved exactly), within 1e-4 relative; no friction impulse (nothing pushes sideways).
    rb_world_id w = pu_make_world_undamped(false);
    const float hs = PU_H / (float)pu_substeps(w), depth_max = pu_resting_depth(w);
    rb_body_id ground = pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id ball = pu_sphere(w, v3(1.5f, 0.5f, -2.0f), 0.5f, 1.0f, 0.6f, 0.0f);
    pu_step(w, 60);
    assert_int_equal(pu_contact_count(w), 1);
    rb_contact c;
    RB_CHECK(rb_world_get_contacts(w, 0, 1, &c));
    assert_true((rb_body_equal(c.body_a, ball) && rb_body_equal(c.body_b, ground)) ||
                (rb_body_equal(c.body_a, ground) && rb_body_equal(c.body_b, ball)));
    assert_shapes_belong_to_bodies(&c);
    rb_vec3 n = expected_ground_normal(&c, ground);
    assert_float_equal(c.normal.x, n.x, 1e-6f);
    assert_float_equal(c.normal.y, n.y, 1e-6f);
    assert_float_equal(c.normal.z, n.z, 1e-6f);
    print_message("resting sphere: depth %.3g m, point (%.6f, %.6f, %.6f), impulse %.6f N s\n", c.depth, c.point.x,
                  c.point.y, c.point.z, c.normal_impulse);
    assert_true(c.depth >= -1e-5f && c.depth <= depth_max + 1e-5f);
    assert_float_equal(c.point.x, 1.5f, 1e-5f);
    assert_float_equal(c.point.y, -0.5f * c.depth, 1e-5f);
    assert_float_equal(c.point.z, -2.0f, 1e-5f);
    assert_true(pu_rel_err(c.normal_impulse, PU_G * hs) < 1e-4);
    assert_float_equal(c.friction_impulse.x, 0.0f, 1e-6f);
    assert_float_equal(c.friction_impulse.y, 0.0f, 1e-6f);
    assert_float_equal(c.friction_impulse.z, 0.0f, 1e-6f);
    rb_destroy_world(w);
}

static void test_contact_normal_points_from_body_a_to_body_b(void **state)
{
    (void)state;
    // Two free spheres (r 0.5) 1 cm apart in zero gravity, inside the contact margin (2 cm): one
    // speculative contact, with n · (c_B − c_A) = +1 (the centres lie along the normal) and
    // depth = −0.01 m (negative: not yet touching), to float precision.
    rb_world_id w = pu_make_world_zero_g();
    pu_sphere(w, v3(0.0f, 1.0f, 0.0f), 0.5f, 1.0f, 0.6f, 0.0f);
    pu_sphere(w, v3(0.6f, 1.8f, 0.0f), 0.5f, 1.0f, 0.6f, 0.0f); // distance 1.0 m: touching
    rb_body_id a = pu_sphere(w, v3(5.0f, 0.0f, 0.0f), 0.5f, 1.0f, 0.6f, 0.0f);
    rb_body_id b = pu_sphere(w, v3(5.0f + 0.606f, 0.808f, 0.0f), 0.5f, 1.0f, 0.6f, 0.0f); // 1.01 m
    pu_step(w, 1);
    int n;
    rb_contact *c = pu_contacts(w, &n);
    assert_int_equal(n, 2);
    bool found = false;
    for (int i = 0; i < n; ++i) {
        assert_shapes_belong_to_bodies(&c[i]);
        rb_vec3 ab = v3_sub(pu_center(c[i].body_b), pu_center(c[i].body_a));
        float along = v3_dot(c[i].normal, ab) / v3_len(ab);
        assert_float_equal(v3_len(c[i].normal), 1.0f, 1e-6f);
        assert_float_equal(along, 1.0f, 1e-5f);
        if ((rb_body_equal(c[i].body_a, a) && rb_body_equal(c[i].body_b, b)) ||
            (rb_body_equal(c[i].body_a, b) && rb_body_equal(c[i].body_b, a))) {
            found = true;
            assert_float_equal(c[i].depth, -0.01f, 1e-5f);
        } else {
            assert_float_equal(c[i].depth, 0.0f, 1e-5f);
        }
    }
    assert_true(found);
    free(c);
    rb_destroy_world(w);
}

static void test_box_resting_on_the_ground_reports_four_contacts_at_its_corners(void **state)
{
    (void)state;
    // A 2 kg unit cube resting at (0.3, 0.5, −0.7), turned 0.4 rad about y: four contacts, one at
    // each bottom corner c + R (±0.5, ·, ±0.5) in x and z (1e-4 m: the corner itself, rounded),
    // at height −depth/2 ∈ [−d/2, 0] (d as above); normals ±(0, 1, 0) by body order; and the normal
    // impulses carry the weight: Σ λn = m g h_s = 0.327 N·s (h_s = 1/60) within 1%. The sequential
    // solver resolves the four corners one at a time and leaves the box rocking by a fraction of a
    // milliradian (test_stacking: < 1 mrad), so one corner may stand off by up to 0.1 mm (measured 26 µm).
    rb_world_id w = pu_make_world_undamped(false);
    const float hs = PU_H / (float)pu_substeps(w), depth_max = pu_resting_depth(w);
    const float gap_max = pu_moves_first(w) ? 1e-4f : 1e-5f;
    rb_body_id ground = pu_add_ground(w, 0.6f, 0.0f);
    rb_quat q = rb_quat_from_axis_angle(v3(0.0f, 1.0f, 0.0f), 0.4f);
    rb_body_id box = pu_box(w, v3(0.3f, 0.5f, -0.7f), q, v3(0.5f, 0.5f, 0.5f), 2.0f, 0.6f, 0.0f);
    pu_step(w, 60);
    int n;
    rb_contact *c = pu_contacts(w, &n);
    assert_int_equal(n, 4);
    rb_vec3 centre = pu_position(box);
    rb_quat rot = pu_rotation(box);
    bool used[4] = {false, false, false, false};
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
        assert_true(rb_body_equal(c[i].body_a, box) || rb_body_equal(c[i].body_b, box));
        assert_shapes_belong_to_bodies(&c[i]);
        rb_vec3 nn = expected_ground_normal(&c[i], ground);
        assert_float_equal(c[i].normal.y, nn.y, 1e-6f);
        if (!(c[i].depth >= -gap_max && c[i].depth <= depth_max + 1e-5f))
            fail_msg("contact %d: depth %.3g m, expected in [%.3g, %.3g]", i, c[i].depth, -gap_max, depth_max);
        assert_float_equal(c[i].point.y, -0.5f * c[i].depth, 1e-4f);
        int match = -1;
        for (int k = 0; k < 4; ++k) {
            rb_vec3 corner = v3_add(centre, quat_rotate(rot, v3(k & 1 ? 0.5f : -0.5f, -0.5f, k & 2 ? 0.5f : -0.5f)));
            if (hypotf(corner.x - c[i].point.x, corner.z - c[i].point.z) < 1e-4f)
                match = k;
        }
        if (match < 0)
            fail_msg("contact %d at (%.5f, %.5f, %.5f) is at no corner of the box", i, c[i].point.x, c[i].point.y,
                     c[i].point.z);
        assert_false(used[match]);
        used[match] = true;
        sum += c[i].normal_impulse;
    }
    assert_true(pu_rel_err(sum, 2.0 * PU_G * hs) < 0.01);
    free(c);
    rb_destroy_world(w);
}

static void test_reading_a_sub_range_gives_the_same_contacts_as_reading_all(void **state)
{
    (void)state;
    // Contacts are ordered by shape pair then point: [first, first + count) of the list is the
    // same as that slice of a full read.
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    pu_box(w, v3(0.0f, 0.5f, 0.0f), quat_identity(), v3(0.5f, 0.5f, 0.5f), 1.0f, 0.6f, 0.0f);
    pu_box(w, v3(3.0f, 0.5f, 0.0f), quat_identity(), v3(0.5f, 0.5f, 0.5f), 1.0f, 0.6f, 0.0f);
    pu_step(w, 10);
    int n;
    rb_contact *all = pu_contacts(w, &n);
    assert_int_equal(n, 8);
    rb_contact part[3];
    RB_CHECK(rb_world_get_contacts(w, 3, 3, part));
    assert_memory_equal(part, &all[3], sizeof part);
    free(all);
    rb_destroy_world(w);
}

static void test_contact_ranges_outside_the_list_are_rejected(void **state)
{
    (void)state;
    // With exactly one contact: valid ranges are [0, 1) and the empty ones [0, 0), [1, 1).
    // Anything else is RB_ERR_INVALID_ARGUMENT with a sentence naming the range; a NULL output
    // is rejected unless nothing is to be written; a destroyed world is a stale id.
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    pu_sphere(w, v3(0.0f, 0.5f, 0.0f), 0.5f, 1.0f, 0.6f, 0.0f);
    pu_step(w, 5);
    assert_int_equal(pu_contact_count(w), 1);
    rb_contact buf[2];
    assert_int_equal(rb_world_get_contacts(w, 0, 1, buf), RB_OK);
    assert_int_equal(rb_world_get_contacts(w, 0, 0, buf), RB_OK);
    assert_int_equal(rb_world_get_contacts(w, 1, 0, buf), RB_OK);
    assert_int_equal(rb_world_get_contacts(w, 0, 0, NULL), RB_OK);

    assert_int_equal(rb_world_get_contacts(w, 0, 2, buf), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "range"));
    assert_int_equal(rb_world_get_contacts(w, 1, 1, buf), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_world_get_contacts(w, -1, 1, buf), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_world_get_contacts(w, 0, -1, buf), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_world_get_contacts(w, 2, 0, buf), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_world_get_contacts(w, 0x7fffffff, 1, buf), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_world_get_contacts(w, 0, 1, NULL), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_world_get_contact_count(w, NULL), RB_ERR_INVALID_ARGUMENT);
    // the failed calls changed nothing
    assert_int_equal(pu_contact_count(w), 1);

    rb_destroy_world(w);
    int count;
    assert_int_equal(rb_world_get_contact_count(w, &count), RB_ERR_STALE_ID);
    assert_int_equal(rb_world_get_contacts(w, 0, 1, buf), RB_ERR_STALE_ID);
}

static void test_a_world_that_has_not_stepped_reports_no_contacts(void **state)
{
    (void)state;
    // Contacts are those of the last step; before the first step there are none, even for a
    // sphere already resting on the ground.
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    pu_sphere(w, v3(0.0f, 0.5f, 0.0f), 0.5f, 1.0f, 0.6f, 0.0f);
    assert_int_equal(pu_contact_count(w), 0);
    assert_int_equal(rb_world_get_contacts(w, 0, 0, NULL), RB_OK);
    pu_step(w, 1);
    assert_int_equal(pu_contact_count(w), 1);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_resting_on_the_ground_reports_one_contact_under_it),
        cmocka_unit_test(test_contact_normal_points_from_body_a_to_body_b),
        cmocka_unit_test(test_box_resting_on_the_ground_reports_four_contacts_at_its_corners),
        cmocka_unit_test(test_reading_a_sub_range_gives_the_same_contacts_as_reading_all),
        cmocka_unit_test(test_contact_ranges_outside_the_list_are_rejected),
        cmocka_unit_test(test_a_world_that_has_not_stepped_reports_no_contacts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
