// Bodies and shapes through the API: mass properties, compound bodies, poses, bulk access.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rubble.h"

static rb_world_id make_world(void)
{
    rb_world_def d = rb_default_world_def();
    d.backend = RB_BACKEND_CPU;
    d.gravity = (rb_vec3){0, 0, 0};
    rb_world_id w;
    assert_int_equal(rb_create_world(&d, &w), RB_OK);
    return w;
}

static rb_body_id dynamic_body(rb_world_id w, rb_vec3 p)
{
    rb_body_def d = rb_default_body_def();
    d.type = RB_BODY_DYNAMIC;
    d.position = p;
    rb_body_id b;
    assert_int_equal(rb_create_body(w, &d, &b), RB_OK);
    return b;
}

static void test_sphere_mass_follows_density_and_volume(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_body_id b = dynamic_body(w, (rb_vec3){0, 0, 0});
    rb_shape_def sd = rb_default_shape_def();
    sd.density = 500.0f;
    rb_sphere s = {0.2f};
    rb_shape_id sid;
    assert_int_equal(rb_create_sphere_shape(b, &sd, &s, &sid), RB_OK);
    // m = rho 4/3 pi r^3 = 500 * 4.18879 * 0.008 = 16.755 kg; I = 2/5 m r^2 = 0.26808
    rb_mass_data md;
    assert_int_equal(rb_body_get_mass_data(b, &md), RB_OK);
    assert_float_equal(md.mass, 16.7552f, 1e-3f);
    assert_float_equal(md.inertia.x, 0.268083f, 1e-5f);
    assert_float_equal(md.inertia.y, md.inertia.x, 1e-7f);
    assert_float_equal(md.inertia_products.x, 0.0f, 1e-7f);
    rb_destroy_world(w);
}

static void test_given_body_mass_scales_the_densities(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_body_def d = rb_default_body_def();
    d.type = RB_BODY_DYNAMIC;
    d.mass = 1.0f;
    rb_body_id b;
    assert_int_equal(rb_create_body(w, &d, &b), RB_OK);
    rb_shape_def sd = rb_default_shape_def();
    rb_box box = {{0.5f, 0.5f, 0.5f}};
    rb_shape_id sid;
    assert_int_equal(rb_create_box_shape(b, &sd, &box, &sid), RB_OK);
    // unit cube of 1 kg: I = m (1^2 + 1^2) / 12 = 1/6 about every axis
    rb_mass_data md;
    rb_body_get_mass_data(b, &md);
    assert_float_equal(md.mass, 1.0f, 1e-6f);
    assert_float_equal(md.inertia.x, 1.0f / 6.0f, 1e-6f);
    assert_float_equal(md.inertia.z, 1.0f / 6.0f, 1e-6f);
    rb_destroy_world(w);
}

static void test_compound_body_has_combined_centre_and_parallel_axis_inertia(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_body_id b = dynamic_body(w, (rb_vec3){10, 0, 0});
    rb_shape_def sd = rb_default_shape_def();
    sd.density = 1.0f;
    rb_sphere s = {0.5f};
    rb_shape_id s1, s2;
    // two equal spheres at x = -1 and x = +3 (body frame): centre at x = 1
    sd.local_position = (rb_vec3){-1, 0, 0};
    assert_int_equal(rb_create_sphere_shape(b, &sd, &s, &s1), RB_OK);
    sd.local_position = (rb_vec3){3, 0, 0};
    assert_int_equal(rb_create_sphere_shape(b, &sd, &s, &s2), RB_OK);
    rb_mass_data md;
    rb_body_get_mass_data(b, &md);
    float m1 = 4.0f / 3.0f * 3.14159265f * 0.125f; // each sphere, density 1
    assert_float_equal(md.mass, 2.0f * m1, 1e-5f);
    assert_float_equal(md.center.x, 1.0f, 1e-6f);
    // about y: each sphere 2/5 m r^2 + m d^2 with d = 2
    float iy = 2.0f * (0.4f * m1 * 0.25f + m1 * 4.0f);
    assert_float_equal(md.inertia.y, iy, 1e-4f);
    assert_float_equal(md.inertia.z, iy, 1e-4f);
    assert_float_equal(md.inertia.x, 2.0f * 0.4f * m1 * 0.25f, 1e-5f);
    // the body origin did not move; the centre of mass is at origin + (1, 0, 0)
    rb_vec3 p, c;
    rb_body_get_position(b, &p);
    rb_body_get_world_center(b, &c);
    assert_float_equal(p.x, 10.0f, 1e-6f);
    assert_float_equal(c.x, 11.0f, 1e-6f);
    int n;
    rb_shape_id ids[2];
    assert_int_equal(rb_body_get_shapes(b, ids, 2, &n), RB_OK);
    assert_int_equal(n, 2);
    assert_true(rb_shape_equal(ids[0], s1)); // creation order
    assert_true(rb_shape_equal(ids[1], s2));
    rb_destroy_world(w);
}

static void test_rotated_off_centre_box_has_inertia_products(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_body_id b = dynamic_body(w, (rb_vec3){0, 0, 0});
    rb_shape_def sd = rb_default_shape_def();
    sd.density = 1.0f;
    // a 2 x 1 x 1 box turned 45 degrees about z: products Ixy = (Ix - Iy)/2 * sin(90) in magnitude
    sd.local_rotation = rb_quat_from_axis_angle((rb_vec3){0, 0, 1}, 3.14159265f / 4.0f);
    rb_box box = {{1.0f, 0.5f, 0.5f}};
    rb_shape_id sid;
    assert_int_equal(rb_create_box_shape(b, &sd, &box, &sid), RB_OK);
    float m = 2.0f;
    float ix = m * (1.0f + 1.0f) / 12.0f, iy = m * (4.0f + 1.0f) / 12.0f;
    rb_mass_data md;
    rb_body_get_mass_data(b, &md);
    assert_float_equal(md.inertia.x, 0.5f * (ix + iy), 1e-5f);
    assert_float_equal(md.inertia.y, 0.5f * (ix + iy), 1e-5f);
    assert_float_equal(fabsf(md.inertia_products.x), 0.5f * (iy - ix), 1e-5f);
    rb_destroy_world(w);
}

static void test_explicit_mass_data_is_kept_until_shapes_change(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_body_id b = dynamic_body(w, (rb_vec3){0, 0, 0});
    rb_shape_def sd = rb_default_shape_def();
    rb_sphere s = {0.5f};
    rb_shape_id sid;
    rb_create_sphere_shape(b, &sd, &s, &sid);
    rb_mass_data md = {3.0f, {0, 0.1f, 0}, {1, 2, 3}, {0, 0, 0}};
    assert_int_equal(rb_body_set_mass_data(b, &md), RB_OK);
    rb_mass_data out;
    rb_body_get_mass_data(b, &out);
    assert_memory_equal(&out, &md, sizeof md);
    // an angular impulse about y changes w by L / Iyy = 4 / 2
    assert_int_equal(rb_body_apply_angular_impulse(b, (rb_vec3){0, 4, 0}, true), RB_OK);
    rb_vec3 wv;
    rb_body_get_angular_velocity(b, &wv);
    assert_float_equal(wv.y, 2.0f, 1e-5f);
    // a new shape brings the mass back from the densities
    rb_create_sphere_shape(b, &sd, &s, &sid);
    rb_body_get_mass_data(b, &out);
    assert_float_equal(out.mass, 2.0f * 1000.0f * 4.0f / 3.0f * 3.14159265f * 0.125f, 0.05f);
    rb_destroy_world(w);
}

static void test_transform_is_of_the_origin_not_the_centre_of_mass(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_body_id b = dynamic_body(w, (rb_vec3){1, 2, 3});
    rb_shape_def sd = rb_default_shape_def();
    sd.local_position = (rb_vec3){0, 1, 0};
    rb_sphere s = {0.5f};
    rb_shape_id sid;
    rb_create_sphere_shape(b, &sd, &s, &sid);
    // turn the body 90 degrees about z: the centre (0, 1, 0) in the body frame goes to (-1, 0, 0)
    rb_quat q = rb_quat_from_axis_angle((rb_vec3){0, 0, 1}, 3.14159265f / 2.0f);
    assert_int_equal(rb_body_set_transform(b, (rb_vec3){5, 5, 5}, q), RB_OK);
    rb_transform t;
    rb_body_get_transform(b, &t);
    assert_float_equal(t.p.x, 5.0f, 1e-6f);
    assert_float_equal(t.p.y, 5.0f, 1e-6f);
    rb_vec3 c;
    rb_body_get_world_center(b, &c);
    assert_float_equal(c.x, 4.0f, 1e-5f);
    assert_float_equal(c.y, 5.0f, 1e-5f);
    rb_vec3 lo, hi;
    assert_int_equal(rb_shape_get_aabb(sid, &lo, &hi), RB_OK);
    assert_float_equal(lo.x, 3.5f, 1e-5f);
    assert_float_equal(hi.y, 5.5f, 1e-5f);
    // spinning about the centre of mass leaves it in place over a step in zero gravity
    rb_body_set_angular_velocity(b, (rb_vec3){0, 0, 2});
    rb_world_step(w);
    rb_vec3 c2;
    rb_body_get_world_center(b, &c2);
    assert_float_equal(c2.x, c.x, 1e-5f);
    assert_float_equal(c2.y, c.y, 1e-5f);
    rb_destroy_world(w);
}

static void test_bulk_transforms_and_velocities_round_trip(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_shape_def sd = rb_default_shape_def();
    rb_box box = {{0.1f, 0.2f, 0.3f}};
    for (int i = 0; i < 10; ++i) {
        rb_body_id b = dynamic_body(w, (rb_vec3){(float)i, 0, 0});
        rb_shape_id sid;
        rb_create_box_shape(b, &sd, &box, &sid);
    }
    rb_transform xf[10];
    rb_vec3 v[10], av[10];
    for (int i = 0; i < 10; ++i) {
        xf[i].p = (rb_vec3){(float)i, (float)(2 * i), -1.0f};
        xf[i].q = rb_quat_from_axis_angle((rb_vec3){1, 1, 0}, 0.1f * (float)i);
        v[i] = (rb_vec3){1.0f, (float)i, 0};
        av[i] = (rb_vec3){0, 0, 0.5f * (float)i};
    }
    assert_int_equal(rb_world_set_transforms(w, 0, 10, xf), RB_OK);
    assert_int_equal(rb_world_set_velocities(w, 0, 10, v, av), RB_OK);
    rb_transform back[10];
    rb_vec3 vb[10], ab[10];
    assert_int_equal(rb_world_get_transforms(w, 0, 10, back), RB_OK);
    assert_int_equal(rb_world_get_velocities(w, 0, 10, vb, ab), RB_OK);
    for (int i = 0; i < 10; ++i) {
        assert_float_equal(back[i].p.y, xf[i].p.y, 1e-6f);
        assert_float_equal(back[i].q.w, xf[i].q.w, 1e-6f);
        assert_float_equal(vb[i].y, v[i].y, 0.0f);
        assert_float_equal(ab[i].z, av[i].z, 0.0f);
    }
    // and the same through the single-body getters
    rb_body_id id;
    assert_int_equal(rb_world_get_body_id(w, 7, &id), RB_OK);
    rb_vec3 p;
    rb_body_get_position(id, &p);
    assert_float_equal(p.y, 14.0f, 1e-6f);
    bool awake[10];
    assert_int_equal(rb_world_get_awake(w, 0, 10, awake), RB_OK);
    assert_true(awake[3]);
    rb_destroy_world(w);
}

static void test_changing_body_type_changes_mass_and_motion(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_body_id b = dynamic_body(w, (rb_vec3){0, 0, 0});
    rb_shape_def sd = rb_default_shape_def();
    rb_sphere s = {0.5f};
    rb_shape_id sid;
    rb_create_sphere_shape(b, &sd, &s, &sid);
    rb_body_set_linear_velocity(b, (rb_vec3){1, 0, 0});
    assert_int_equal(rb_body_set_type(b, RB_BODY_STATIC), RB_OK);
    float m;
    rb_body_get_mass(b, &m);
    assert_float_equal(m, 0.0f, 0.0f);
    rb_vec3 v;
    rb_body_get_linear_velocity(b, &v);
    assert_float_equal(v.x, 0.0f, 0.0f);
    bool awake;
    rb_body_is_awake(b, &awake);
    assert_false(awake);
    assert_int_equal(rb_body_set_type(b, RB_BODY_KINEMATIC), RB_OK);
    rb_body_set_linear_velocity(b, (rb_vec3){2, 0, 0});
    for (int i = 0; i < 30; ++i)
        rb_world_step(w);
    rb_vec3 p;
    rb_body_get_position(b, &p);
    assert_float_equal(p.x, 1.0f, 1e-4f); // 2 m/s for 0.5 s
    assert_int_equal(rb_body_set_type(b, RB_BODY_DYNAMIC), RB_OK);
    rb_body_get_mass(b, &m);
    assert_true(m > 0.0f);
    rb_body_type t;
    rb_body_get_type(b, &t);
    assert_int_equal(t, RB_BODY_DYNAMIC);
    rb_destroy_world(w);
}

static void test_shape_materials_and_user_data(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_body_id b = dynamic_body(w, (rb_vec3){0, 0, 0});
    rb_shape_def sd = rb_default_shape_def();
    int tag = 7;
    sd.user_data = &tag;
    rb_capsule c = {0.5f, 0.25f};
    rb_shape_id sid;
    assert_int_equal(rb_create_capsule_shape(b, &sd, &c, &sid), RB_OK);
    assert_ptr_equal(rb_shape_get_user_data(sid), &tag);
    assert_int_equal(rb_shape_set_friction(sid, 0.25f), RB_OK);
    assert_int_equal(rb_shape_set_restitution(sid, 0.75f), RB_OK);
    float f, r;
    rb_shape_get_friction(sid, &f);
    rb_shape_get_restitution(sid, &r);
    assert_float_equal(f, 0.25f, 0.0f);
    assert_float_equal(r, 0.75f, 0.0f);
    rb_capsule back;
    assert_int_equal(rb_shape_get_capsule(sid, &back), RB_OK);
    assert_float_equal(back.half_length, 0.5f, 0.0f);
    rb_shape_type type;
    rb_shape_get_type(sid, &type);
    assert_int_equal(type, RB_SHAPE_CAPSULE);
    rb_body_id owner;
    rb_shape_get_body(sid, &owner);
    assert_true(rb_body_equal(owner, b));
    // density doubles -> mass doubles
    float m1, m2;
    rb_body_get_mass(b, &m1);
    rb_shape_set_density(sid, 2000.0f);
    rb_body_get_mass(b, &m2);
    assert_float_equal(m2, 2.0f * m1, 1e-3f);
    int userdata = 3;
    rb_body_set_user_data(b, &userdata);
    assert_ptr_equal(rb_body_get_user_data(b), &userdata);
    rb_counters cn;
    rb_world_get_counters(w, &cn);
    assert_int_equal(cn.bodies, 1);
    assert_int_equal(cn.shapes, 1);
    assert_int_equal(rb_destroy_shape(sid), RB_OK);
    rb_world_get_counters(w, &cn);
    assert_int_equal(cn.shapes, 0);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_mass_follows_density_and_volume),
        cmocka_unit_test(test_given_body_mass_scales_the_densities),
        cmocka_unit_test(test_compound_body_has_combined_centre_and_parallel_axis_inertia),
        cmocka_unit_test(test_rotated_off_centre_box_has_inertia_products),
        cmocka_unit_test(test_explicit_mass_data_is_kept_until_shapes_change),
        cmocka_unit_test(test_transform_is_of_the_origin_not_the_centre_of_mass),
        cmocka_unit_test(test_bulk_transforms_and_velocities_round_trip),
        cmocka_unit_test(test_changing_body_type_changes_mass_and_motion),
        cmocka_unit_test(test_shape_materials_and_user_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
