// A body's life as the API sees it, across the calls that change it between steps: mass data that
// survives a kinematic or static spell, counters that describe the world as it is now, a frozen body
// that the application can return to the simulation, ids that stay stale in a later world of the same
// world slot, and a failed scene load that gives back every slot it took. Each was a defect the fuzz
// targets found (docs/fuzzing.md; inputs in tests/fuzz/regressions/). Runs on the CPU, and on OpenCL /
// CUDA with RUBBLE_TEST_BACKEND.
#include <float.h>
#include <string.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "physics_util.h"

static rb_counters counters(rb_world_id w)
{
    rb_counters c;
    RB_CHECK(rb_world_get_counters(w, &c));
    return c;
}

// ---- mass data

// Mass data set on a dynamic body is the body's mass until a shape is added or removed (Box2D's rule);
// turning the body kinematic or static and back does not lose it. Before, the body came back dynamic
// with mass 0 (and inverse mass 0: an immovable "dynamic" body).
static void test_mass_data_survives_a_kinematic_and_a_static_spell(void **state)
{
    (void)state;
    rb_world_def d = pu_world_def(false);
    d.gravity = v3(0.0f, 0.0f, 0.0f);
    rb_world_id w = pu_make_world_from(&d);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(1.0f, 2.0f, 3.0f), quat_identity(), 0.0f);
    rb_shape_def sd = pu_material(0.5f, 0.0f);
    rb_body_id b = pu_add_box_body(w, &bd, v3(0.5f, 0.5f, 0.5f), &sd); // 1000 kg/m³: 1000 kg
    rb_mass_data set = {3.0f, {0.1f, -0.2f, 0.05f}, {0.7f, 0.9f, 1.1f}, {0.01f, -0.02f, 0.03f}};
    RB_CHECK(rb_body_set_mass_data(b, &set));
    rb_vec3 origin = pu_position(b);
    for (int spell = 0; spell < 2; ++spell) {
        RB_CHECK(rb_body_set_type(b, spell == 0 ? RB_BODY_KINEMATIC : RB_BODY_STATIC));
        assert_float_equal(pu_mass(b), 0.0f, 0.0f);
        RB_CHECK(rb_body_set_type(b, RB_BODY_DYNAMIC));
        rb_mass_data got;
        RB_CHECK(rb_body_get_mass_data(b, &got));
        assert_memory_equal(&got, &set, sizeof got);
        // the origin stays where it was through the round trip (the centre moved to the origin and back)
        assert_float_equal(v3_dist(pu_position(b), origin), 0.0f, 1e-6f);
    }
    // and it is that mass that moves: an impulse J through the centre gives J / m
    RB_CHECK(rb_body_apply_linear_impulse_to_center(b, v3(6.0f, 0.0f, 0.0f), true));
    assert_float_equal(pu_velocity(b).x, 2.0f, 1e-6f);
    pu_step(w, 30);
    assert_float_equal(pu_center(b).x - (origin.x + 0.1f), 2.0f * 0.5f, 1e-4f);
    // a new shape brings its own mass again
    rb_shape_id extra;
    rb_sphere s = {0.1f};
    RB_CHECK(rb_create_sphere_shape(b, &sd, &s, &extra));
    assert_float_equal(pu_mass(b), 1000.0f + 1000.0f * 4.0f / 3.0f * 3.14159265f * 1e-3f, 0.05f);
    rb_destroy_world(w);
}

// ---- counters between steps

// rb_counters describes the world as it is when asked: destroyed bodies are not awake, a body put to
// sleep or woken by the application counts at once. Before, awake_bodies kept the last step's count:
// 2 awake of 1 body after a destroy.
static void test_awake_and_frozen_counts_follow_calls_between_steps(void **state)
{
    (void)state;
    rb_world_def d = pu_world_def(true);
    rb_world_id w = pu_make_world_from(&d);
    rb_body_id b[3];
    for (int i = 0; i < 3; ++i)
        b[i] = pu_sphere(w, v3(3.0f * (float)i, 5.0f, 0.0f), 0.5f, 1.0f, 0.5f, 0.0f);
    pu_step(w, 1);
    assert_int_equal(counters(w).awake_bodies, 3);
    RB_CHECK(rb_destroy_body(b[0]));
    assert_int_equal(counters(w).awake_bodies, 2);
    RB_CHECK(rb_body_set_awake(b[1], false));
    rb_counters c = counters(w);
    assert_int_equal(c.awake_bodies, 1);
    assert_int_equal(c.bodies, 2);
    RB_CHECK(rb_body_set_awake(b[1], true));
    assert_int_equal(counters(w).awake_bodies, 2);
    RB_CHECK(rb_body_set_type(b[2], RB_BODY_STATIC));
    assert_int_equal(counters(w).awake_bodies, 1);
    rb_destroy_world(w);
}

// ---- frozen bodies

// A body of 1 g pushed with 2 x FLT_MAX newtons: its velocity overflows in the step, which puts it back
// where it was, stopped and frozen.
static rb_body_id frozen_ball(rb_world_id w, rb_vec3 at)
{
    rb_body_id b = pu_sphere(w, at, 0.1f, 1e-3f, 0.5f, 0.0f);
    RB_CHECK(rb_body_apply_force_to_center(b, v3(FLT_MAX, 0.0f, 0.0f), true));
    RB_CHECK(rb_body_apply_force_to_center(b, v3(FLT_MAX, 0.0f, 0.0f), true));
    assert_int_equal(rb_world_step(w), RB_ERR_NUMERIC);
    assert_int_equal(counters(w).frozen_bodies, 1);
    assert_false(pu_awake(b));
    return b;
}

// A frozen body stays out of the simulation until the application sets its state: waking it, placing
// it, setting a velocity or pushing it with wake = true returns it, and it then moves as any body does
// (free fall: y = y0 - g t² / 2 within the integrator's O(h) term). A force without wake leaves it
// frozen, as it leaves a sleeping body asleep. Before, rb_body_set_awake(true) returned RB_OK and the
// body stayed frozen and asleep for good; a velocity set with RB_OK was never applied.
static void test_a_frozen_body_returns_when_the_application_sets_its_state(void **state)
{
    (void)state;
    rb_world_def d = pu_world_def(false);
    rb_world_id w = pu_make_world_from(&d);
    const float g = 9.81f, dt = d.time_step;

    // woken
    rb_body_id b = frozen_ball(w, v3(0.0f, 100.0f, 0.0f));
    RB_CHECK(rb_body_apply_force_to_center(b, v3(1.0f, 0.0f, 0.0f), false)); // no wake: stays frozen
    pu_step(w, 1);
    assert_int_equal(counters(w).frozen_bodies, 1);
    assert_float_equal(pu_position(b).y, 100.0f, 0.0f);
    RB_CHECK(rb_body_set_awake(b, true));
    assert_true(pu_awake(b));
    rb_counters c = counters(w);
    assert_int_equal(c.frozen_bodies, 0);
    assert_int_equal(c.awake_bodies, 1);
    int n = 60;
    pu_step(w, n);
    float t = (float)n * dt, fall = 100.0f - pu_position(b).y;
    assert_true(fabsf(fall - 0.5f * g * t * t) < 0.5f * g * t * dt * 1.01f);
    assert_float_equal(pu_velocity(b).y, -g * t, 1e-3f * g * t);

    // a velocity set on a frozen body is applied
    RB_CHECK(rb_destroy_body(b));
    b = frozen_ball(w, v3(10.0f, 100.0f, 0.0f));
    RB_CHECK(rb_body_set_linear_velocity(b, v3(0.0f, 0.0f, 2.0f)));
    assert_int_equal(counters(w).frozen_bodies, 0);
    pu_step(w, n);
    assert_float_equal(pu_position(b).z, 2.0f * t, 1e-4f);

    // a placed one falls from where it was put
    RB_CHECK(rb_destroy_body(b));
    b = frozen_ball(w, v3(20.0f, 100.0f, 0.0f));
    RB_CHECK(rb_body_set_transform(b, v3(20.0f, 50.0f, 0.0f), quat_identity()));
    assert_int_equal(counters(w).frozen_bodies, 0);
    pu_step(w, n);
    assert_float_equal(pu_velocity(b).y, -g * t, 1e-3f * g * t);
    assert_true(pu_position(b).y < 50.0f - 0.4f * g * t * t);

    // the bulk calls follow the same rules: a transform beyond the coordinate limit is refused and
    // changes nothing, a placed or set frozen body returns
    RB_CHECK(rb_destroy_body(b));
    b = frozen_ball(w, v3(40.0f, 100.0f, 0.0f));
    int slot = b.index1 - 1;
    rb_transform far = {v3(3e18f, 0.0f, 0.0f), quat_identity()};
    assert_int_equal(rb_world_set_transforms(w, slot, 1, &far), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "within"));
    assert_float_equal(pu_position(b).x, 40.0f, 0.0f);
    assert_int_equal(counters(w).frozen_bodies, 1);
    rb_transform there = {v3(40.0f, 50.0f, 0.0f), quat_identity()};
    RB_CHECK(rb_world_set_transforms(w, slot, 1, &there));
    assert_int_equal(counters(w).frozen_bodies, 0);
    pu_step(w, n);
    assert_true(pu_position(b).y < 50.0f - 0.4f * g * t * t);
    RB_CHECK(rb_destroy_body(b));
    b = frozen_ball(w, v3(50.0f, 100.0f, 0.0f));
    slot = b.index1 - 1;
    rb_vec3 stop = v3(0.0f, 0.0f, 0.0f);
    RB_CHECK(rb_world_set_velocities(w, slot, 1, &stop, NULL)); // even a zero velocity is a state set
    assert_int_equal(counters(w).frozen_bodies, 0);
    pu_step(w, n);
    assert_float_equal(pu_velocity(b).y, -g * t, 1e-3f * g * t);

    // an impulse with wake returns it too, and moves it
    RB_CHECK(rb_destroy_body(b));
    b = frozen_ball(w, v3(30.0f, 100.0f, 0.0f));
    RB_CHECK(rb_body_apply_linear_impulse_to_center(b, v3(0.0f, 0.0f, 1e-3f), true)); // 1 m/s on 1 g
    assert_int_equal(counters(w).frozen_bodies, 0);
    assert_float_equal(pu_velocity(b).z, 1.0f, 1e-5f);
    rb_destroy_world(w);
}

// ---- ids across worlds

// An id names one body of one world: once the world is destroyed, the id stays stale when a later world
// takes the same world slot and creates bodies and shapes in the same body and shape slots. Before, body
// and shape generations in a new world started at the world's generation, so an id of an earlier world
// could name a body of the new one (found at the fourth world).
static void test_ids_of_a_destroyed_world_stay_stale_in_later_worlds_of_its_slot(void **state)
{
    (void)state;
    rb_world_def d = pu_world_def(false);
    enum { WORLDS = 12, BODIES = 5 };
    rb_body_id old_bodies[WORLDS][BODIES];
    rb_shape_id old_shapes[WORLDS][BODIES];
    uint16_t slot = 0;
    for (int k = 0; k < WORLDS; ++k) {
        rb_world_id w = pu_make_world_from(&d);
        if (k == 0)
            slot = w.index1;
        assert_int_equal(w.index1, slot); // the same world slot every time
        // churn that raises some slots' generations more than others: create, destroy, create again
        for (int i = 0; i < BODIES; ++i) {
            old_bodies[k][i] = pu_sphere(w, v3((float)i, 1.0f, 0.0f), 0.5f, 1.0f, 0.5f, 0.0f);
            if ((i + k) % 3 == 0) {
                RB_CHECK(rb_destroy_body(old_bodies[k][i]));
                old_bodies[k][i] = pu_sphere(w, v3((float)i, 1.0f, 0.0f), 0.5f, 1.0f, 0.5f, 0.0f);
            }
            int got = 0;
            RB_CHECK(rb_body_get_shapes(old_bodies[k][i], &old_shapes[k][i], 1, &got));
            assert_int_equal(got, 1);
        }
        for (int j = 0; j < k; ++j)
            for (int i = 0; i < BODIES; ++i) {
                assert_false(rb_body_is_valid(old_bodies[j][i]));
                assert_false(rb_shape_is_valid(old_shapes[j][i]));
                rb_vec3 p;
                assert_int_equal(rb_body_get_position(old_bodies[j][i], &p), RB_ERR_STALE_ID);
            }
        for (int i = 0; i < BODIES; ++i)
            assert_true(rb_body_is_valid(old_bodies[k][i]) && rb_shape_is_valid(old_shapes[k][i]));
        RB_CHECK(rb_destroy_world(w));
    }
}

// ---- failed loads

// A scene load that fails after creating bodies removes them and gives back their slots: body_slots is
// as before, the last slot below body_slots holds a live body, and the next body takes the slot it would have taken
// without the load (a freed slot before a new one). Before, body_slots stayed raised (2 -> 6).
static void test_a_failed_load_gives_back_its_slots(void **state)
{
    (void)state;
    rb_world_def d = pu_world_def(false);
    rb_world_id w = pu_make_world_from(&d);
    rb_body_id keep[3];
    for (int i = 0; i < 3; ++i)
        keep[i] = pu_sphere(w, v3(2.0f * (float)i, 1.0f, 0.0f), 0.5f, 1.0f, 0.5f, 0.0f);
    RB_CHECK(rb_destroy_body(keep[1])); // a hole at slot 1
    rb_counters before = counters(w);
    assert_int_equal(before.body_slots, 3);
    const char *scene = "rubble-scene: 1\n"
                        "bodies:\n"
                        "  - {position: [0, 1, 5], shapes: [{sphere: {radius: 0.5}}]}\n"
                        "  - {position: [0, 2, 5], shapes: [{sphere: {radius: 0.5}}, {box: {half_extents: [1, 1, 1]}}]}\n"
                        "  - {position: [0, 3, 5], shapes: [{sphere: {radius: 0.5}}]}\n"
                        "generators:\n"
                        "  - grid: {count: [1, 1, 1], spacing: [1, 1, 1], shape: {sphere: {radius: -1}}}\n";
    assert_int_equal(rb_load_scene_text(w, scene, "bad"), RB_ERR_INVALID_ARGUMENT);
    rb_counters after = counters(w);
    assert_int_equal(after.bodies, 2);
    assert_int_equal(after.shapes, 2);
    assert_int_equal(after.body_slots, 3);
    rb_transform t;
    RB_CHECK(rb_world_get_transforms(w, after.body_slots - 1, 1, &t)); // the last slot is a live body's
    assert_float_equal(t.p.x, 4.0f, 0.0f);
    // the hole is taken first, then a new slot, as without the load
    rb_body_id a = pu_sphere(w, v3(10.0f, 5.0f, 0.0f), 0.5f, 1.0f, 0.5f, 0.0f);
    rb_body_id b = pu_sphere(w, v3(20.0f, 7.0f, 0.0f), 0.5f, 1.0f, 0.5f, 0.0f);
    assert_int_equal(a.index1, 2);
    assert_int_equal(b.index1, 4);
    // and the world steps with them (a backend never saw the load's slots)
    pu_add_ground(w, 0.5f, 0.0f);
    pu_step(w, 120);
    assert_float_equal(pu_position(keep[0]).y, 0.5f, 0.02f);
    assert_float_equal(pu_position(b).y, 0.5f, 0.02f);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mass_data_survives_a_kinematic_and_a_static_spell),
        cmocka_unit_test(test_awake_and_frozen_counts_follow_calls_between_steps),
        cmocka_unit_test(test_a_frozen_body_returns_when_the_application_sets_its_state),
        cmocka_unit_test(test_ids_of_a_destroyed_world_stay_stale_in_later_worlds_of_its_slot),
        cmocka_unit_test(test_a_failed_load_gives_back_its_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
