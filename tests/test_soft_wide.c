// The soft solver's wide passes (backend-cpu/contact_solver_wide.c) are a layout of the scalar code,
// not new physics: each lane does rb_contact_solve_soft's (and the shock and refresh kernels')
// operations in their order, so a world stepped with the lanes ends bit for bit where the scalar
// reference (rb_cpu_ctx.soft_reference) does, through stacks, piles, bounces, kinematic bodies and the
// overflow batch. Both builds of the lanes (four, and eight where the CPU has AVX2) are compared.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "contact_solver_wide.h"
#include "cpu_test_util.h"

// Ground, a kinematic box sweeping through, bouncy balls dropped on it, and one big ball carrying 100
// small ones (more contacts than colours: the overflow batch).
static void build_mixed(rb_world_id w)
{
    rb_shape_def sd = rb_default_shape_def();
    rb_shape_id sid;
    rb_body_def bd = rb_default_body_def();
    rb_body_id ground, b;
    bd.position = (rb_vec3){0, -0.5f, 0};
    assert_int_equal(rb_create_body(w, &bd, &ground), RB_OK);
    rb_box floor = {{20.0f, 0.5f, 20.0f}};
    rb_create_box_shape(ground, &sd, &floor, &sid);
    bd = rb_default_body_def();
    bd.type = RB_BODY_KINEMATIC;
    bd.position = (rb_vec3){-6.0f, 0.5f, 3.0f};
    bd.linear_velocity = (rb_vec3){2.0f, 0, 0};
    bd.angular_velocity = (rb_vec3){0, 1.0f, 0};
    assert_int_equal(rb_create_body(w, &bd, &b), RB_OK);
    rb_box slab = {{1.0f, 0.5f, 0.5f}};
    rb_create_box_shape(b, &sd, &slab, &sid);
    bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    sd.restitution = 0.6f;
    rb_sphere ball = {0.25f};
    for (int i = 0; i < 12; ++i) {
        bd.position = (rb_vec3){-5.0f + 0.8f * (float)i, 1.0f + 0.3f * (float)(i % 4), 3.0f + 0.05f * (float)i};
        assert_int_equal(rb_create_body(w, &bd, &b), RB_OK);
        rb_create_sphere_shape(b, &sd, &ball, &sid);
    }
    sd.restitution = 0.0f;
    rb_box cube = {{0.3f, 0.3f, 0.3f}};
    for (int i = 0; i < 6; ++i) {
        bd.position = (rb_vec3){-4.0f + 1.7f * (float)i, 0.31f + 0.0f, 3.0f};
        assert_int_equal(rb_create_body(w, &bd, &b), RB_OK);
        rb_create_box_shape(b, &sd, &cube, &sid);
    }
    rb_sphere big = {2.0f}, small = {0.1f};
    bd.position = (rb_vec3){0, 2.0f, -4.0f};
    assert_int_equal(rb_create_body(w, &bd, &b), RB_OK);
    rb_create_sphere_shape(b, &sd, &big, &sid);
    for (int i = 0; i < 100; ++i) {
        float y = 1.0f - 2.0f * ((float)i + 0.5f) / 100.0f;
        float r = sqrtf(1.0f - y * y), phi = 2.39996323f * (float)i;
        float R = 2.0f + 0.1f - 0.001f;
        bd.position = (rb_vec3){R * r * cosf(phi), 2.0f + R * y, -4.0f + R * r * sinf(phi)};
        assert_int_equal(rb_create_body(w, &bd, &b), RB_OK);
        rb_create_sphere_shape(b, &sd, &small, &sid);
    }
}

typedef struct state {
    int n;
    rb_float4 *pos, *rot, *lin, *ang;
} state;

// Steps the scene with the lanes or the scalar reference and keeps the final body state.
static state run(const char *scene, int reference, int lanes, int threads, int steps)
{
    rb_world_def d = rb_default_world_def();
    d.backend = RB_BACKEND_CPU;
    d.solver = RB_SOLVER_SOFT;
    d.enable_sleep = false;
    d.threads = threads;
    rb_world_id w;
    assert_int_equal(rb_create_world(&d, &w), RB_OK);
    if (scene)
        assert_int_equal(rb_build_standard_scene(w, scene, 1), RB_OK);
    else
        build_mixed(w);
    rb_cpu_ctx *c = cpu_of(w);
    c->soft_reference = reference;
    c->wide_lanes = lanes;
    int overflow = 0;
    for (int i = 0; i < steps; ++i) {
        assert_int_equal(rb_world_step(w), RB_OK);
        overflow |= c->color_start[RB_MAX_COLORS + 1] > c->color_start[RB_MAX_COLORS];
    }
    if (!scene)
        assert_true(overflow); // the mixed scene does reach the overflow batch
    const rb_scene *s = c->scene;
    state st;
    st.n = s->body_slots;
    size_t bytes = sizeof(rb_float4) * (size_t)st.n;
    st.pos = malloc(bytes);
    st.rot = malloc(bytes);
    st.lin = malloc(bytes);
    st.ang = malloc(bytes);
    memcpy(st.pos, s->body_pos, bytes);
    memcpy(st.rot, s->body_rot, bytes);
    memcpy(st.lin, s->body_lin_vel, bytes);
    memcpy(st.ang, s->body_ang_vel, bytes);
    rb_destroy_world(w);
    return st;
}

static void free_state(state *s)
{
    free(s->pos);
    free(s->rot);
    free(s->lin);
    free(s->ang);
}

static void expect_lanes_equal_reference(const char *scene, int steps)
{
    state ref = run(scene, 1, 0, 1, steps);
    int eight = 0;
#if RB_WIDE_HAS_8
    __builtin_cpu_init();
    eight = __builtin_cpu_supports("avx2");
#endif
    if (!eight)
        print_message("no AVX2: the eight-lane build is not compared\n");
    for (int run_index = 0; run_index < (eight ? 4 : 2); ++run_index) {
        int threads = 1 + run_index % 2, lanes = run_index < 2 ? 4 : 8;
        state wide = run(scene, 0, lanes, threads, steps);
        assert_int_equal(wide.n, ref.n);
        size_t bytes = sizeof(rb_float4) * (size_t)ref.n;
        for (int b = 0; b < ref.n; ++b)
            if (memcmp(&wide.pos[b], &ref.pos[b], sizeof(rb_float4)) != 0)
                fail_msg("%s, %d lanes, %d thread(s): body %d at (%.9g %.9g %.9g), the reference at (%.9g %.9g %.9g)",
                         scene ? scene : "mixed", lanes, threads, b, wide.pos[b].x, wide.pos[b].y, wide.pos[b].z, ref.pos[b].x,
                         ref.pos[b].y, ref.pos[b].z);
        assert_memory_equal(wide.rot, ref.rot, bytes);
        assert_memory_equal(wide.lin, ref.lin, bytes);
        assert_memory_equal(wide.ang, ref.ang, bytes);
        free_state(&wide);
    }
    free_state(&ref);
}

static void test_pyramid_in_lanes_ends_where_the_scalar_solver_does(void **state)
{
    (void)state;
    expect_lanes_equal_reference("pyramid", 60);
}

static void test_sphere_pile_in_lanes_ends_where_the_scalar_solver_does(void **state)
{
    (void)state;
    expect_lanes_equal_reference("pile:6", 120);
}

static void test_bounces_kinematic_and_overflow_in_lanes_end_where_the_scalar_solver_does(void **state)
{
    (void)state;
    expect_lanes_equal_reference(NULL, 90);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pyramid_in_lanes_ends_where_the_scalar_solver_does),
        cmocka_unit_test(test_sphere_pile_in_lanes_ends_where_the_scalar_solver_does),
        cmocka_unit_test(test_bounces_kinematic_and_overflow_in_lanes_end_where_the_scalar_solver_does),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
