// Every API error path returns the right status with a message, and leaves the world as it was.
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rubble.h"

// Everything observable about a small world, to compare before and after a failing call.
typedef struct snapshot {
    rb_counters counters;
    rb_vec3 gravity;
    float time_step;
    int substeps;
    int n;
    rb_transform xf[16];
    rb_vec3 v[16], w[16];
    rb_mass_data mass[16];
} snapshot;

static void take(rb_world_id w, snapshot *s)
{
    memset(s, 0, sizeof *s);
    assert_int_equal(rb_world_get_counters(w, &s->counters), RB_OK);
    rb_world_get_gravity(w, &s->gravity);
    rb_world_get_time_step(w, &s->time_step, &s->substeps);
    s->n = s->counters.body_slots;
    assert_true(s->n <= 16);
    for (int i = 0; i < s->n; ++i) {
        rb_body_id id;
        if (rb_world_get_body_id(w, i, &id) != RB_OK)
            continue;
        rb_body_get_transform(id, &s->xf[i]);
        rb_body_get_linear_velocity(id, &s->v[i]);
        rb_body_get_angular_velocity(id, &s->w[i]);
        rb_body_get_mass_data(id, &s->mass[i]);
    }
}

static void assert_unchanged(rb_world_id w, const snapshot *before)
{
    snapshot now;
    take(w, &now);
    assert_memory_equal(&now, before, sizeof now);
}

typedef struct fixture {
    rb_world_id world;
    rb_body_id ground, box, ball;
    rb_shape_id box_shape;
} fixture;

static int setup_with(void **state, rb_solver solver, int substeps)
{
    unsetenv("RUBBLE_BACKEND");
    fixture *f = calloc(1, sizeof *f);
    rb_world_def def = rb_default_world_def();
    def.backend = RB_BACKEND_CPU;
    def.solver = solver;
    def.substeps = substeps;
    assert_int_equal(rb_create_world(&def, &f->world), RB_OK);
    rb_body_def bd = rb_default_body_def();
    rb_shape_def sd = rb_default_shape_def();
    assert_int_equal(rb_create_body(f->world, &bd, &f->ground), RB_OK);
    rb_plane plane = {{0, 1, 0}, 0};
    rb_shape_id sid;
    assert_int_equal(rb_create_plane_shape(f->ground, &sd, &plane, &sid), RB_OK);
    bd.type = RB_BODY_DYNAMIC;
    bd.position = (rb_vec3){0, 0.5f, 0};
    assert_int_equal(rb_create_body(f->world, &bd, &f->box), RB_OK);
    rb_box box = {{0.5f, 0.5f, 0.5f}};
    assert_int_equal(rb_create_box_shape(f->box, &sd, &box, &f->box_shape), RB_OK);
    bd.position = (rb_vec3){3, 2, 0};
    assert_int_equal(rb_create_body(f->world, &bd, &f->ball), RB_OK);
    rb_sphere sphere = {0.25f};
    assert_int_equal(rb_create_sphere_shape(f->ball, &sd, &sphere, &sid), RB_OK);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(rb_world_step(f->world), RB_OK);
    *state = f;
    return 0;
}

static int setup(void **state)
{
    return setup_with(state, RB_SOLVER_DEFAULT, 0);
}

// the non-finite guard with substeps (the body moves in the first ones) and with the sequential
// solver (positions move before the velocity update): either way back to the pose before the step
static int setup_substeps(void **state)
{
    return setup_with(state, RB_SOLVER_BATCHED, 3);
}

static int setup_sequential(void **state)
{
    return setup_with(state, RB_SOLVER_SEQUENTIAL, 0);
}

static int teardown(void **state)
{
    fixture *f = *state;
    if (rb_world_is_valid(f->world))
        rb_destroy_world(f->world);
    free(f);
    return 0;
}

// The status is `expected`, the message mentions `word`, and nothing changed.
#define EXPECT_FAILURE(f, before, call, expected, word)                                            \
    do {                                                                                           \
        rb_status s_ = (call);                                                                     \
        assert_int_equal(s_, (expected));                                                          \
        const char *m_ = rb_last_error((f)->world);                                                \
        if (!strstr(m_, (word)))                                                                   \
            fail_msg("message '%s' does not mention '%s'", m_, (word));                            \
        assert_unchanged((f)->world, (before));                                                    \
    } while (0)

static void test_world_def_errors_are_rejected_with_reasons(void **state)
{
    (void)state;
    rb_world_id w;
    assert_int_equal(rb_create_world(NULL, &w), RB_ERR_INVALID_ARGUMENT);
    rb_world_def d;
    memset(&d, 0, sizeof d);
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "rb_default_world_def"));

    d = rb_default_world_def();
    d.gravity.y = NAN;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "gravity"));
    d = rb_default_world_def();
    d.time_step = -0.01f;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "time_step"));
    d = rb_default_world_def();
    d.substeps = -1; // 0 is "the solver's choice"
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "substeps"));
    d = rb_default_world_def();
    d.substeps = 65;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    d = rb_default_world_def();
    d.iterations = 0;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    d = rb_default_world_def();
    d.threads = -2;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    d = rb_default_world_def();
    d.solver = (rb_solver)42;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    d = rb_default_world_def();
    d.backend = (rb_backend)9;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    d = rb_default_world_def();
    d.position_correction = 1.5f;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "position_correction"));
    // the soft solver's contact spring: 0 is "the solver's choice", negative or NaN is an error
    d = rb_default_world_def();
    d.contact_hertz = -30.0f;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "contact_hertz"));
    d = rb_default_world_def();
    d.contact_damping_ratio = NAN;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "contact_damping_ratio"));
    // and its joint rows' (0 is the solver's choice)
    d = rb_default_world_def();
    d.joint_hertz = -60.0f;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "joint_hertz"));
    d = rb_default_world_def();
    d.joint_damping_ratio = INFINITY;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "joint_damping_ratio"));
}

static void test_world_setters_reject_bad_values_and_keep_settings(void **state)
{
    fixture *f = *state;
    snapshot before;
    take(f->world, &before);
    EXPECT_FAILURE(f, &before, rb_world_set_gravity(f->world, (rb_vec3){0, INFINITY, 0}), RB_ERR_INVALID_ARGUMENT,
                   "gravity");
    EXPECT_FAILURE(f, &before, rb_world_set_time_step(f->world, 0.0f, 1), RB_ERR_INVALID_ARGUMENT, "time_step");
    EXPECT_FAILURE(f, &before, rb_world_set_time_step(f->world, 0.01f, -1), RB_ERR_INVALID_ARGUMENT, "substeps");
    EXPECT_FAILURE(f, &before, rb_world_set_iterations(f->world, -1, 4), RB_ERR_INVALID_ARGUMENT, "iterations");
    EXPECT_FAILURE(f, &before, rb_world_set_solver(f->world, (rb_solver)77), RB_ERR_INVALID_ARGUMENT, "solver");
    EXPECT_FAILURE(f, &before, rb_world_set_restitution_threshold(f->world, -0.5f), RB_ERR_INVALID_ARGUMENT,
                   "restitution_threshold");
    EXPECT_FAILURE(f, &before, rb_world_set_restitution_threshold(f->world, NAN), RB_ERR_INVALID_ARGUMENT,
                   "restitution_threshold");
}

static void test_stale_world_id_is_detected(void **state)
{
    (void)state;
    rb_world_def d = rb_default_world_def();
    rb_world_id w;
    assert_int_equal(rb_create_world(&d, &w), RB_OK);
    rb_body_def bd = rb_default_body_def();
    rb_body_id b;
    assert_int_equal(rb_create_body(w, &bd, &b), RB_OK);
    assert_int_equal(rb_destroy_world(w), RB_OK);
    assert_false(rb_world_is_valid(w));
    assert_int_equal(rb_world_step(w), RB_ERR_STALE_ID);
    assert_non_null(strstr(rb_last_error(w), "destroyed world"));
    assert_int_equal(rb_destroy_world(w), RB_ERR_STALE_ID);
    assert_int_equal(rb_create_body(w, &bd, &b), RB_ERR_STALE_ID);
    rb_vec3 p;
    assert_int_equal(rb_body_get_position(b, &p), RB_ERR_STALE_ID);
    assert_false(rb_body_is_valid(b));
    assert_int_equal(rb_world_step(rb_null_world_id), RB_ERR_STALE_ID);

    // a new world in the same slot does not accept the old world's id
    rb_world_id w2;
    assert_int_equal(rb_create_world(&d, &w2), RB_OK);
    assert_int_equal(w2.index1, w.index1);
    assert_int_equal(rb_world_step(w), RB_ERR_STALE_ID);
    rb_destroy_world(w2);
}

static void test_body_def_errors_are_rejected(void **state)
{
    fixture *f = *state;
    snapshot before;
    take(f->world, &before);
    rb_body_id b;
    rb_body_def d;
    memset(&d, 0, sizeof d);
    EXPECT_FAILURE(f, &before, rb_create_body(f->world, &d, &b), RB_ERR_INVALID_ARGUMENT, "rb_default_body_def");
    d = rb_default_body_def();
    d.position.x = NAN;
    EXPECT_FAILURE(f, &before, rb_create_body(f->world, &d, &b), RB_ERR_INVALID_ARGUMENT, "position");
    d = rb_default_body_def();
    d.rotation = (rb_quat){0, 0, 0, 0};
    EXPECT_FAILURE(f, &before, rb_create_body(f->world, &d, &b), RB_ERR_INVALID_ARGUMENT, "rotation");
    d = rb_default_body_def();
    d.type = RB_BODY_DYNAMIC;
    d.linear_velocity.z = INFINITY;
    EXPECT_FAILURE(f, &before, rb_create_body(f->world, &d, &b), RB_ERR_INVALID_ARGUMENT, "velocities");
    d = rb_default_body_def();
    d.type = RB_BODY_DYNAMIC;
    d.linear_damping = -1.0f;
    EXPECT_FAILURE(f, &before, rb_create_body(f->world, &d, &b), RB_ERR_INVALID_ARGUMENT, "linear_damping");
    d = rb_default_body_def();
    d.type = RB_BODY_DYNAMIC;
    d.mass = -2.0f;
    EXPECT_FAILURE(f, &before, rb_create_body(f->world, &d, &b), RB_ERR_INVALID_ARGUMENT, "mass");
    d = rb_default_body_def();
    d.mass = 1.0f; // static
    EXPECT_FAILURE(f, &before, rb_create_body(f->world, &d, &b), RB_ERR_INVALID_ARGUMENT, "static");
    d = rb_default_body_def();
    d.type = (rb_body_type)5;
    EXPECT_FAILURE(f, &before, rb_create_body(f->world, &d, &b), RB_ERR_INVALID_ARGUMENT, "type");
    EXPECT_FAILURE(f, &before, rb_create_body(f->world, NULL, &b), RB_ERR_INVALID_ARGUMENT, "NULL");
}

static void test_shape_sizes_must_be_finite_and_positive(void **state)
{
    fixture *f = *state;
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    bd.position = (rb_vec3){-3, 1, 0};
    rb_body_id body;
    assert_int_equal(rb_create_body(f->world, &bd, &body), RB_OK);
    snapshot before;
    take(f->world, &before);
    rb_shape_def sd = rb_default_shape_def();
    rb_shape_id s;
    rb_sphere sphere = {-1.0f};
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &sd, &sphere, &s), RB_ERR_INVALID_ARGUMENT, "radius");
    sphere.radius = 0.0f;
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &sd, &sphere, &s), RB_ERR_INVALID_ARGUMENT, "radius");
    sphere.radius = NAN;
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &sd, &sphere, &s), RB_ERR_INVALID_ARGUMENT, "radius");
    sphere.radius = 1e7f;
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &sd, &sphere, &s), RB_ERR_INVALID_ARGUMENT, "radius");
    rb_box box = {{0.5f, -0.5f, 0.5f}};
    EXPECT_FAILURE(f, &before, rb_create_box_shape(body, &sd, &box, &s), RB_ERR_INVALID_ARGUMENT, "half_extents.y");
    rb_capsule cap = {-0.1f, 0.2f};
    EXPECT_FAILURE(f, &before, rb_create_capsule_shape(body, &sd, &cap, &s), RB_ERR_INVALID_ARGUMENT, "half_length");
    cap = (rb_capsule){0.5f, 0.0f};
    EXPECT_FAILURE(f, &before, rb_create_capsule_shape(body, &sd, &cap, &s), RB_ERR_INVALID_ARGUMENT, "radius");
    rb_plane plane = {{0, 0, 0}, 0};
    EXPECT_FAILURE(f, &before, rb_create_plane_shape(f->ground, &sd, &plane, &s), RB_ERR_INVALID_ARGUMENT, "normal");
    plane = (rb_plane){{0, 1, 0}, 0};
    EXPECT_FAILURE(f, &before, rb_create_plane_shape(body, &sd, &plane, &s), RB_ERR_INVALID_ARGUMENT, "static");
    sphere.radius = 0.5f;
    sd.restitution = 1.5f;
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &sd, &sphere, &s), RB_ERR_INVALID_ARGUMENT, "restitution");
    sd = rb_default_shape_def();
    sd.friction = -0.1f;
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &sd, &sphere, &s), RB_ERR_INVALID_ARGUMENT, "friction");
    sd = rb_default_shape_def();
    sd.density = NAN;
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &sd, &sphere, &s), RB_ERR_INVALID_ARGUMENT, "density");
    sd = rb_default_shape_def();
    sd.local_position.x = INFINITY;
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &sd, &sphere, &s), RB_ERR_INVALID_ARGUMENT, "local_position");
    rb_shape_def zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &zeroed, &sphere, &s), RB_ERR_INVALID_ARGUMENT,
                   "rb_default_shape_def");
}

static void test_dynamic_body_with_zero_mass_is_rejected(void **state)
{
    fixture *f = *state;
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    rb_body_id body;
    assert_int_equal(rb_create_body(f->world, &bd, &body), RB_OK);
    snapshot before;
    take(f->world, &before);
    rb_shape_def sd = rb_default_shape_def();
    sd.density = 0.0f;
    rb_sphere sphere = {0.5f};
    rb_shape_id s;
    EXPECT_FAILURE(f, &before, rb_create_sphere_shape(body, &sd, &sphere, &s), RB_ERR_INVALID_ARGUMENT, "mass");
    int count = -1;
    rb_body_get_shape_count(body, &count);
    assert_int_equal(count, 0);

    // with a body mass, density 0 is fine: the mass is spread by volume
    bd.mass = 2.0f;
    rb_body_id massive;
    assert_int_equal(rb_create_body(f->world, &bd, &massive), RB_OK);
    assert_int_equal(rb_create_sphere_shape(massive, &sd, &sphere, &s), RB_OK);
    float m;
    rb_body_get_mass(massive, &m);
    assert_float_equal(m, 2.0f, 1e-6f);

    // the only shape of a dynamic body cannot lose its density; removing it leaves a shapeless body
    // with the documented default mass of 1 kg
    rb_body_id b2;
    bd.mass = 0.0f;
    assert_int_equal(rb_create_body(f->world, &bd, &b2), RB_OK);
    rb_shape_def dense = rb_default_shape_def();
    rb_shape_id only;
    assert_int_equal(rb_create_sphere_shape(b2, &dense, &sphere, &only), RB_OK);
    take(f->world, &before);
    EXPECT_FAILURE(f, &before, rb_shape_set_density(only, 0.0f), RB_ERR_INVALID_ARGUMENT, "mass");
    assert_true(rb_shape_is_valid(only));
    assert_int_equal(rb_destroy_shape(only), RB_OK);
    rb_body_get_mass(b2, &m);
    assert_float_equal(m, 1.0f, 0.0f);
}

static void test_mass_data_must_be_physical(void **state)
{
    fixture *f = *state;
    snapshot before;
    take(f->world, &before);
    rb_mass_data md = {0.0f, {0, 0, 0}, {1, 1, 1}, {0, 0, 0}};
    EXPECT_FAILURE(f, &before, rb_body_set_mass_data(f->box, &md), RB_ERR_INVALID_ARGUMENT, "mass");
    md.mass = 1.0f;
    md.inertia = (rb_vec3){1, -1, 1};
    EXPECT_FAILURE(f, &before, rb_body_set_mass_data(f->box, &md), RB_ERR_INVALID_ARGUMENT, "positive definite");
    md.inertia = (rb_vec3){1, 1, 1};
    md.inertia_products = (rb_vec3){2, 0, 0}; // |Ixy| > sqrt(Ixx Iyy)
    EXPECT_FAILURE(f, &before, rb_body_set_mass_data(f->box, &md), RB_ERR_INVALID_ARGUMENT, "positive definite");
    md.inertia_products = (rb_vec3){0, 0, 0};
    EXPECT_FAILURE(f, &before, rb_body_set_mass_data(f->ground, &md), RB_ERR_INVALID_ARGUMENT, "dynamic");
    md.center.x = NAN;
    EXPECT_FAILURE(f, &before, rb_body_set_mass_data(f->box, &md), RB_ERR_INVALID_ARGUMENT, "finite");
}

static void test_stale_body_and_shape_ids_are_detected(void **state)
{
    fixture *f = *state;
    rb_body_id ball = f->ball;
    rb_shape_id shapes[4];
    int count;
    assert_int_equal(rb_body_get_shapes(ball, shapes, 4, &count), RB_OK);
    assert_int_equal(count, 1);
    assert_int_equal(rb_destroy_body(ball), RB_OK);
    snapshot before;
    take(f->world, &before);
    rb_vec3 v;
    EXPECT_FAILURE(f, &before, rb_body_get_linear_velocity(ball, &v), RB_ERR_STALE_ID, "destroyed body");
    EXPECT_FAILURE(f, &before, rb_body_set_linear_velocity(ball, v), RB_ERR_STALE_ID, "destroyed body");
    EXPECT_FAILURE(f, &before, rb_destroy_body(ball), RB_ERR_STALE_ID, "destroyed body");
    EXPECT_FAILURE(f, &before, rb_shape_set_friction(shapes[0], 0.1f), RB_ERR_STALE_ID, "destroyed shape");
    assert_false(rb_body_is_valid(ball));
    assert_false(rb_shape_is_valid(shapes[0]));

    // the slot is reused by the next body, whose id differs in generation
    rb_body_def bd = rb_default_body_def();
    rb_body_id fresh;
    assert_int_equal(rb_create_body(f->world, &bd, &fresh), RB_OK);
    assert_int_equal(fresh.index1, ball.index1);
    assert_false(rb_body_equal(fresh, ball));
    assert_int_equal(rb_body_get_linear_velocity(ball, &v), RB_ERR_STALE_ID);
    assert_int_equal(rb_body_get_linear_velocity(fresh, &v), RB_OK);

    rb_body_id null_body = rb_null_body_id;
    assert_int_equal(rb_body_get_linear_velocity(null_body, &v), RB_ERR_STALE_ID);
}

static void test_body_state_setters_reject_non_finite_values(void **state)
{
    fixture *f = *state;
    snapshot before;
    take(f->world, &before);
    EXPECT_FAILURE(f, &before, rb_body_set_linear_velocity(f->box, (rb_vec3){NAN, 0, 0}), RB_ERR_INVALID_ARGUMENT,
                   "finite");
    EXPECT_FAILURE(f, &before, rb_body_set_angular_velocity(f->box, (rb_vec3){0, INFINITY, 0}),
                   RB_ERR_INVALID_ARGUMENT, "finite");
    EXPECT_FAILURE(f, &before, rb_body_set_transform(f->box, (rb_vec3){0, NAN, 0}, (rb_quat){0, 0, 0, 1}),
                   RB_ERR_INVALID_ARGUMENT, "position");
    EXPECT_FAILURE(f, &before, rb_body_set_transform(f->box, (rb_vec3){0, 1, 0}, (rb_quat){0, 0, 0, 3}),
                   RB_ERR_INVALID_ARGUMENT, "rotation");
    EXPECT_FAILURE(f, &before, rb_body_apply_force_to_center(f->box, (rb_vec3){0, NAN, 0}, true),
                   RB_ERR_INVALID_ARGUMENT, "force");
    EXPECT_FAILURE(f, &before, rb_body_apply_linear_impulse(f->box, (rb_vec3){1, 0, 0}, (rb_vec3){0, INFINITY, 0}, true),
                   RB_ERR_INVALID_ARGUMENT, "impulse");
    EXPECT_FAILURE(f, &before, rb_body_apply_torque(f->box, (rb_vec3){0, 0, NAN}, true), RB_ERR_INVALID_ARGUMENT,
                   "torque");
    EXPECT_FAILURE(f, &before, rb_body_set_linear_damping(f->box, -1.0f), RB_ERR_INVALID_ARGUMENT, "linear_damping");
    EXPECT_FAILURE(f, &before, rb_body_set_gravity_scale(f->box, NAN), RB_ERR_INVALID_ARGUMENT, "gravity_scale");
    EXPECT_FAILURE(f, &before, rb_body_set_linear_velocity(f->ground, (rb_vec3){1, 0, 0}), RB_ERR_INVALID_ARGUMENT,
                   "static");
    EXPECT_FAILURE(f, &before, rb_body_set_type(f->box, (rb_body_type)9), RB_ERR_INVALID_ARGUMENT, "type");
    EXPECT_FAILURE(f, &before, rb_body_set_type(f->ground, RB_BODY_DYNAMIC), RB_ERR_INVALID_ARGUMENT, "plane");
}

static void test_bulk_access_checks_the_whole_range_first(void **state)
{
    fixture *f = *state;
    snapshot before;
    take(f->world, &before);
    rb_transform xf[4];
    EXPECT_FAILURE(f, &before, rb_world_get_transforms(f->world, 1, 5, xf), RB_ERR_INVALID_ARGUMENT, "range");
    EXPECT_FAILURE(f, &before, rb_world_get_transforms(f->world, -1, 1, xf), RB_ERR_INVALID_ARGUMENT, "range");
    EXPECT_FAILURE(f, &before, rb_world_get_transforms(f->world, 0, 2, NULL), RB_ERR_INVALID_ARGUMENT, "NULL");

    // a batch with one bad transform changes nothing, not even the good ones before it
    assert_int_equal(rb_world_get_transforms(f->world, 0, 3, xf), RB_OK);
    xf[1].p.x += 1.0f;
    xf[2].p.y = NAN;
    EXPECT_FAILURE(f, &before, rb_world_set_transforms(f->world, 0, 3, xf), RB_ERR_INVALID_ARGUMENT, "transform 2");
    rb_vec3 v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 0, NAN}};
    EXPECT_FAILURE(f, &before, rb_world_set_velocities(f->world, 1, 2, v + 1, NULL), RB_ERR_INVALID_ARGUMENT,
                   "velocity 1");
    EXPECT_FAILURE(f, &before, rb_world_set_velocities(f->world, 0, 2, v, NULL), RB_ERR_INVALID_ARGUMENT, "static");

    // a freed slot inside the range is reported
    assert_int_equal(rb_destroy_body(f->ball), RB_OK);
    take(f->world, &before);
    EXPECT_FAILURE(f, &before, rb_world_get_transforms(f->world, 0, 3, xf), RB_ERR_STALE_ID, "slot 2");
    rb_body_id id;
    EXPECT_FAILURE(f, &before, rb_world_get_body_id(f->world, 2, &id), RB_ERR_STALE_ID, "slot 2");
}

static void test_contact_range_is_checked(void **state)
{
    fixture *f = *state;
    int n = 0;
    assert_int_equal(rb_world_get_contact_count(f->world, &n), RB_OK);
    assert_true(n >= 4); // the box rests on the plane
    rb_contact c[8];
    snapshot before;
    take(f->world, &before);
    EXPECT_FAILURE(f, &before, rb_world_get_contacts(f->world, n - 1, 2, c), RB_ERR_INVALID_ARGUMENT, "range");
    EXPECT_FAILURE(f, &before, rb_world_get_contacts(f->world, 0, 1, NULL), RB_ERR_INVALID_ARGUMENT, "NULL");
}

static void test_non_finite_body_is_frozen_and_neighbours_are_unaffected(void **state)
{
    fixture *f = *state;
    // a force so large that one step overflows the velocity to infinity
    rb_vec3 before_pos, box_before;
    rb_body_get_position(f->ball, &before_pos);
    rb_body_get_position(f->box, &box_before);
    assert_int_equal(rb_body_apply_force_to_center(f->ball, (rb_vec3){FLT_MAX, 0, 0}, true), RB_OK);
    assert_int_equal(rb_body_apply_force_to_center(f->ball, (rb_vec3){FLT_MAX, 0, 0}, true), RB_OK);
    assert_int_equal(rb_world_step(f->world), RB_ERR_NUMERIC);
    assert_non_null(strstr(rb_last_error(f->world), "non-finite"));
    rb_counters c;
    rb_world_get_counters(f->world, &c);
    assert_int_equal(c.frozen_bodies, 1);
    rb_vec3 p, v;
    rb_body_get_position(f->ball, &p);
    rb_body_get_linear_velocity(f->ball, &v);
    assert_true(isfinite(p.x) && isfinite(p.y) && isfinite(p.z));
    assert_memory_equal(&p, &before_pos, sizeof p); // the last finite pose
    assert_float_equal(v.x, 0.0f, 0.0f);
    // the world steps on; the frozen ball stays put; the box keeps resting
    for (int i = 0; i < 30; ++i)
        assert_int_equal(rb_world_step(f->world), RB_OK);
    rb_body_get_position(f->ball, &p);
    assert_memory_equal(&p, &before_pos, sizeof p);
    rb_vec3 box;
    rb_body_get_position(f->box, &box);
    assert_float_equal(box.y, box_before.y, 1e-3f);
}

static void test_null_outputs_are_rejected(void **state)
{
    fixture *f = *state;
    snapshot before;
    take(f->world, &before);
    EXPECT_FAILURE(f, &before, rb_body_get_transform(f->box, NULL), RB_ERR_INVALID_ARGUMENT, "NULL");
    EXPECT_FAILURE(f, &before, rb_world_get_profile(f->world, NULL), RB_ERR_INVALID_ARGUMENT, "NULL");
    EXPECT_FAILURE(f, &before, rb_shape_get_type(f->box_shape, NULL), RB_ERR_INVALID_ARGUMENT, "NULL");
    EXPECT_FAILURE(f, &before, rb_world_get_time_step(f->world, NULL, NULL), RB_ERR_INVALID_ARGUMENT, "NULL");
    rb_sphere sphere;
    EXPECT_FAILURE(f, &before, rb_shape_get_sphere(f->box_shape, &sphere), RB_ERR_INVALID_ARGUMENT, "type");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_world_def_errors_are_rejected_with_reasons),
        cmocka_unit_test_setup_teardown(test_world_setters_reject_bad_values_and_keep_settings, setup, teardown),
        cmocka_unit_test(test_stale_world_id_is_detected),
        cmocka_unit_test_setup_teardown(test_body_def_errors_are_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shape_sizes_must_be_finite_and_positive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dynamic_body_with_zero_mass_is_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mass_data_must_be_physical, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_body_and_shape_ids_are_detected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_body_state_setters_reject_non_finite_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bulk_access_checks_the_whole_range_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_contact_range_is_checked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_non_finite_body_is_frozen_and_neighbours_are_unaffected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_non_finite_body_is_frozen_and_neighbours_are_unaffected, setup_substeps,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_non_finite_body_is_frozen_and_neighbours_are_unaffected, setup_sequential,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_null_outputs_are_rejected, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
