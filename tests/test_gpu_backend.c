// A GPU backend through the public API: physics on the device, and how it fails (kernel build errors,
// missing devices, device memory) without harming the host scene. Built twice (tests/meson.build):
// as test_opencl (GPU_BACKEND_CUDA 0) and as test_cuda (GPU_BACKEND_CUDA 1); both backends run the same
// shared pipeline (backend-gpu/), so the same tests hold for both.
//
// Skipped (77) when the backend has no device, except OpenCL with CI=true (PoCL is installed there),
// where that is a failure.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "physics_util.h"

#if GPU_BACKEND_CUDA
#define GPU_BACKEND RB_BACKEND_CUDA
#define GPU_NAME "CUDA"
#define GPU_ENV(suffix) "RUBBLE_CUDA_" suffix
#else
#define GPU_BACKEND RB_BACKEND_OPENCL
#define GPU_NAME "OpenCL"
#define GPU_ENV(suffix) "RUBBLE_OPENCL_" suffix
#endif

static rb_world_id gpu_world(rb_vec3 gravity)
{
    rb_world_def d = pu_world_def(false);
    d.backend = GPU_BACKEND;
    d.gravity = gravity;
    return pu_make_world_from(&d);
}

static void test_free_fall_follows_semi_implicit_euler(void **state)
{
    (void)state;
    rb_world_id w = gpu_world(v3(0.0f, -PU_G, 0.0f));
    assert_int_equal(pu_solver(w), RB_SOLVER_BATCHED); // the GPU backends' default (the CPU's: sequential)
    rb_body_id ball = pu_sphere(w, v3(0.0f, 100.0f, 0.0f), 0.25f, 1.0f, 0.6f, 0.0f);
    // v_n = -g h n, y_n = y_0 - g h^2 n (n + 1) / 2 (velocity first, then position)
    const int n = 60;
    for (int i = 0; i < n; ++i)
        RB_CHECK(rb_world_step(w));
    rb_vec3 p, v;
    RB_CHECK(rb_body_get_position(ball, &p));
    RB_CHECK(rb_body_get_linear_velocity(ball, &v));
    double h = 1.0 / 60.0;
    assert_float_equal(v.y, -PU_G * h * n, 1e-4);
    assert_float_equal(p.y, 100.0 - PU_G * h * h * n * (n + 1) / 2.0, 1e-3);
    assert_float_equal(p.x, 0.0f, 1e-6);
    rb_destroy_world(w);
}

static void test_sphere_comes_to_rest_on_the_ground_at_its_radius(void **state)
{
    (void)state;
    rb_world_id w = gpu_world(v3(0.0f, -PU_G, 0.0f));
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id ball = pu_sphere(w, v3(0.0f, 1.0f, 0.0f), 0.5f, 1.0f, 0.6f, 0.0f);
    for (int i = 0; i < 120; ++i)
        RB_CHECK(rb_world_step(w));
    rb_vec3 p, v;
    RB_CHECK(rb_body_get_position(ball, &p));
    RB_CHECK(rb_body_get_linear_velocity(ball, &v));
    // resting: centre one radius above the plane, within the 5 mm penetration slop
    assert_float_equal(p.y, 0.5f, 0.006f);
    assert_true(v3_len(v) < 1e-3f);
    rb_destroy_world(w);
}

static void test_inelastic_head_on_collision_conserves_momentum(void **state)
{
    (void)state;
    rb_world_id w = gpu_world(v3(0.0f, 0.0f, 0.0f));
    // m1 = 1 kg at +3 m/s, m2 = 3 kg at -1 m/s: p = 0; e = 0, so both end at rest together
    rb_body_id a = pu_sphere(w, v3(-2.0f, 0.0f, 0.0f), 0.5f, 1.0f, 0.0f, 0.0f);
    rb_body_id b = pu_sphere(w, v3(2.0f, 0.0f, 0.0f), 0.5f, 3.0f, 0.0f, 0.0f);
    RB_CHECK(rb_body_set_linear_velocity(a, v3(3.0f, 0.0f, 0.0f)));
    RB_CHECK(rb_body_set_linear_velocity(b, v3(-1.0f, 0.0f, 0.0f)));
    for (int i = 0; i < 90; ++i)
        RB_CHECK(rb_world_step(w));
    rb_vec3 va, vb;
    RB_CHECK(rb_body_get_linear_velocity(a, &va));
    RB_CHECK(rb_body_get_linear_velocity(b, &vb));
    assert_float_equal(1.0f * va.x + 3.0f * vb.x, 0.0f, 1e-4f);
    assert_float_equal(va.x, 0.0f, 1e-4f);
    assert_float_equal(vb.x, 0.0f, 1e-4f);
    rb_destroy_world(w);
}

// Both backends from the same scene: the pairs and contacts of the first step agree exactly, in order.
static void test_body_whose_velocity_overflows_mid_step_is_frozen_at_its_pose_before_the_step(void **state)
{
    (void)state;
    rb_world_def d = pu_world_def(false);
    d.backend = GPU_BACKEND;
    d.gravity = v3(0.0f, 0.0f, 0.0f);
    d.substeps = 3;
    rb_world_id w = pu_make_world_from(&d);
    rb_body_id ball = pu_sphere(w, v3(0.0f, 10.0f, 0.0f), 0.25f, 1.0f, 0.6f, 0.0f);
    // h = 1/180 s: a force of FLT_MAX on 1 kg adds dv = FLT_MAX / 180 per substep. From
    // v0 = FLT_MAX - 1.5 dv the first substep stays finite and moves the ball by ~2e36 m; the second
    // overflows. The ball goes back to where the step found it, as on the CPU (rb_freeze_body).
    float dv = FLT_MAX / 180.0f;
    RB_CHECK(rb_body_set_linear_velocity(ball, v3(FLT_MAX - 1.5f * dv, 0.0f, 0.0f)));
    RB_CHECK(rb_body_apply_force_to_center(ball, v3(FLT_MAX, 0.0f, 0.0f), true));
    rb_vec3 before, p, v;
    RB_CHECK(rb_body_get_position(ball, &before));
    assert_int_equal(rb_world_step(w), RB_ERR_NUMERIC);
    RB_CHECK(rb_body_get_position(ball, &p));
    RB_CHECK(rb_body_get_linear_velocity(ball, &v));
    assert_memory_equal(&p, &before, sizeof p);
    assert_float_equal(v.x, 0.0f, 0.0f);
    rb_destroy_world(w);
}

static void test_contacts_of_all_shape_pairs_match_the_cpu(void **state)
{
    (void)state;
    const char *dir = getenv("RUBBLE_TEST_DATA");
    assert_non_null(dir);
    char path[1024];
    snprintf(path, sizeof path, "%s/all_shape_pairs.yaml", dir);
    rb_world_id w[2];
    for (int i = 0; i < 2; ++i) {
        rb_world_def d = pu_world_def(false);
        d.backend = i == 0 ? RB_BACKEND_CPU : GPU_BACKEND;
        d.solver = RB_SOLVER_BATCHED; // the solver both backends have (the CPU's default is sequential)
        w[i] = pu_make_world_from(&d);
        RB_CHECK(rb_load_scene(w[i], path));
        RB_CHECK(rb_world_step(w[i]));
    }
    int n[2];
    rb_contact c[2][64];
    for (int i = 0; i < 2; ++i) {
        RB_CHECK(rb_world_get_contact_count(w[i], &n[i]));
        assert_true(n[i] <= 64);
        RB_CHECK(rb_world_get_contacts(w[i], 0, n[i], c[i]));
    }
    // sixteen stacked pairs, the convex ones among them (hull on plane, hull, box and sphere; capsule on a
    // rounded hull; tetrahedron on a face): 43 points (counted on the CPU backend)
    assert_int_equal(n[0], 43);
    assert_int_equal(n[1], n[0]);
    for (int k = 0; k < n[0]; ++k) {
        assert_int_equal(c[0][k].shape_a.index1, c[1][k].shape_a.index1);
        assert_int_equal(c[0][k].shape_b.index1, c[1][k].shape_b.index1);
        assert_float_equal(c[0][k].point.x, c[1][k].point.x, 1e-5f);
        assert_float_equal(c[0][k].point.y, c[1][k].point.y, 1e-5f);
        assert_float_equal(c[0][k].point.z, c[1][k].point.z, 1e-5f);
        assert_float_equal(c[0][k].normal.x, c[1][k].normal.x, 1e-5f);
        assert_float_equal(c[0][k].normal.y, c[1][k].normal.y, 1e-5f);
        assert_float_equal(c[0][k].normal.z, c[1][k].normal.z, 1e-5f);
        assert_float_equal(c[0][k].depth, c[1][k].depth, 1e-5f);
        assert_float_equal(c[0][k].normal_impulse, c[1][k].normal_impulse, 1e-4f);
    }
    rb_destroy_world(w[0]);
    rb_destroy_world(w[1]);
}

#if !GPU_BACKEND_CUDA
// (CUDA's kernels are built with the library, by nvcc: a build error fails the build, not a world.)
static void test_kernel_build_error_reports_the_log_and_cpu_carries_on(void **state)
{
    (void)state;
    setenv("RUBBLE_OPENCL_BUILD_OPTIONS", "-DRB_KERNELS_PORTABLE_H", 1);
    rb_world_def d = pu_world_def(false);
    d.backend = GPU_BACKEND;
    rb_world_id w;
    rb_status s = rb_create_world(&d, &w);
    unsetenv("RUBBLE_OPENCL_BUILD_OPTIONS");
    assert_int_equal(s, RB_ERR_BACKEND_FAILED);
    const char *msg = rb_last_error(rb_null_world_id);
    assert_non_null(strstr(msg, "kernel build failed"));
    assert_non_null(strstr(msg, "RB_FN")); // from the compiler's log: portable.h was left out
    // the application carries on with the CPU backend
    d.backend = RB_BACKEND_CPU;
    w = pu_make_world_from(&d);
    rb_body_id ball = pu_sphere(w, v3(0.0f, 10.0f, 0.0f), 0.25f, 1.0f, 0.6f, 0.0f);
    RB_CHECK(rb_world_step(w));
    rb_vec3 v;
    RB_CHECK(rb_body_get_linear_velocity(ball, &v));
    assert_float_equal(v.y, -PU_G / 60.0f, 1e-5f);
    rb_destroy_world(w);
}

#endif

static void test_unknown_device_is_an_error_that_lists_the_devices(void **state)
{
    (void)state;
#if GPU_BACKEND_CUDA
    const char *wrong = "99"; // an index past the devices
#else
    const char *wrong = "no-such-device-anywhere";
#endif
    setenv(GPU_ENV("DEVICE"), wrong, 1);
    rb_world_def d = pu_world_def(false);
    d.backend = GPU_BACKEND;
    rb_world_id w;
    rb_status s = rb_create_world(&d, &w);
    unsetenv(GPU_ENV("DEVICE"));
    assert_true(s == RB_ERR_BACKEND_UNAVAILABLE || s == RB_ERR_INVALID_ARGUMENT);
    const char *msg = rb_last_error(rb_null_world_id);
    assert_non_null(strstr(msg, wrong));
#if GPU_BACKEND_CUDA
    assert_non_null(strstr(msg, "[0]")); // the devices there are
#else
    assert_non_null(strstr(msg, "platform 0"));
#endif
}

static void test_device_out_of_memory_leaves_the_host_scene_intact(void **state)
{
    (void)state;
    setenv(GPU_ENV("MEMORY_LIMIT"), "200K", 1);
    rb_world_def d = pu_world_def(false);
    d.backend = GPU_BACKEND;
    rb_world_id w = pu_make_world_from(&d);
    unsetenv(GPU_ENV("MEMORY_LIMIT"));
    RB_CHECK(rb_build_standard_scene(w, "pyramid", 1)); // 385 cubes, ~9000 contact points: far over 200 KiB
    rb_transform before[386], after[386];
    RB_CHECK(rb_world_get_transforms(w, 0, 386, before));
    rb_status s = rb_world_step(w);
    assert_int_equal(s, RB_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(rb_last_error(w), GPU_ENV("MEMORY_LIMIT")));
    RB_CHECK(rb_world_get_transforms(w, 0, 386, after));
    assert_memory_equal(before, after, sizeof before);
    rb_destroy_world(w);
    // the same scene on the CPU backend steps
    d.backend = RB_BACKEND_CPU;
    w = pu_make_world_from(&d);
    RB_CHECK(rb_build_standard_scene(w, "pyramid", 1));
    RB_CHECK(rb_world_step(w));
    rb_destroy_world(w);
}

#if GPU_BACKEND_CUDA
// Driver failures, injected by the CUDA driver emulator (tests/cuda_emulator/, RUBBLE_CUDA_EMULATOR_FAIL);
// skipped on a real GPU, where they cannot be provoked.
static int on_the_emulator(void)
{
    rb_backend_info info;
    return rb_backend_probe(RB_BACKEND_CUDA, &info) == RB_OK && info.available && strstr(info.device, "emulator");
}

static void test_gpu_without_code_for_it_names_the_architectures_built(void **state)
{
    (void)state;
    if (!on_the_emulator())
        skip();
    setenv("RUBBLE_CUDA_EMULATOR_FAIL", "no-binary", 1);
    rb_world_def d = pu_world_def(false);
    d.backend = RB_BACKEND_CUDA;
    rb_world_id w = rb_null_world_id;
    rb_status s = rb_create_world(&d, &w);
    unsetenv("RUBBLE_CUDA_EMULATOR_FAIL");
    assert_int_equal(s, RB_ERR_BACKEND_FAILED);
    assert_false(rb_world_is_valid(w));
    const char *msg = rb_last_error(rb_null_world_id);
    assert_non_null(strstr(msg, "CUDA_ERROR_NO_BINARY_FOR_GPU"));
    assert_non_null(strstr(msg, "built for sm_"));
    assert_non_null(strstr(msg, "-Dcuda-arch"));
}

static void test_failed_launch_mid_step_leaves_the_host_scene_intact(void **state)
{
    (void)state;
    if (!on_the_emulator())
        skip();
    // launch 1 is the start-up layout check; a step of the pyramid makes dozens
    setenv("RUBBLE_CUDA_EMULATOR_FAIL", "launch:25", 1);
    rb_world_def d = pu_world_def(false);
    d.backend = RB_BACKEND_CUDA;
    rb_world_id w = pu_make_world_from(&d);
    unsetenv("RUBBLE_CUDA_EMULATOR_FAIL");
    RB_CHECK(rb_build_standard_scene(w, "pyramid", 1));
    rb_transform before[386], after[386];
    RB_CHECK(rb_world_get_transforms(w, 0, 386, before));
    rb_status s = rb_world_step(w);
    assert_int_equal(s, RB_ERR_BACKEND_FAILED);
    const char *msg = rb_last_error(w);
    assert_non_null(strstr(msg, "CUDA_ERROR_LAUNCH_FAILED"));
    assert_non_null(strstr(msg, "failed")); // "<phase> failed: ..."
    RB_CHECK(rb_world_get_transforms(w, 0, 386, after));
    assert_memory_equal(before, after, sizeof before);
    rb_destroy_world(w);
}

static void test_device_memory_refused_at_creation_is_an_out_of_memory_error(void **state)
{
    (void)state;
    if (!on_the_emulator())
        skip();
    setenv("RUBBLE_CUDA_EMULATOR_FAIL", "alloc:1", 1);
    rb_world_def d = pu_world_def(false);
    d.backend = RB_BACKEND_CUDA;
    rb_world_id w = rb_null_world_id;
    rb_status s = rb_create_world(&d, &w);
    unsetenv("RUBBLE_CUDA_EMULATOR_FAIL");
    assert_int_equal(s, RB_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "out of device memory"));
    // and the next world starts
    w = pu_make_world_from(&d);
    rb_destroy_world(w);
}
#endif

int main(void)
{
    rb_backend_info info;
    if (rb_backend_probe(GPU_BACKEND, &info) != RB_OK || !info.available) {
        printf("no " GPU_NAME " device, skipped: %s\n", info.message);
        const char *ci = getenv("CI");
        const char *require = getenv("RUBBLE_TEST_REQUIRE_BACKEND");
        if (require && strcmp(require, "1") == 0) {
            printf("FAIL: RUBBLE_TEST_REQUIRE_BACKEND=1\n");
            return 1;
        }
        if (!GPU_BACKEND_CUDA && ci && strcmp(ci, "true") == 0) {
            printf("FAIL: CI=true requires an OpenCL device (install pocl-opencl-icd)\n");
            return 1;
        }
        return 77;
    }
    printf(GPU_NAME " device: %s\n", info.device);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_fall_follows_semi_implicit_euler),
        cmocka_unit_test(test_sphere_comes_to_rest_on_the_ground_at_its_radius),
        cmocka_unit_test(test_inelastic_head_on_collision_conserves_momentum),
        cmocka_unit_test(test_body_whose_velocity_overflows_mid_step_is_frozen_at_its_pose_before_the_step),
        cmocka_unit_test(test_contacts_of_all_shape_pairs_match_the_cpu),
#if !GPU_BACKEND_CUDA
        cmocka_unit_test(test_kernel_build_error_reports_the_log_and_cpu_carries_on),
#endif
        cmocka_unit_test(test_unknown_device_is_an_error_that_lists_the_devices),
        cmocka_unit_test(test_device_out_of_memory_leaves_the_host_scene_intact),
#if GPU_BACKEND_CUDA
        cmocka_unit_test(test_gpu_without_code_for_it_names_the_architectures_built),
        cmocka_unit_test(test_failed_launch_mid_step_leaves_the_host_scene_intact),
        cmocka_unit_test(test_device_memory_refused_at_creation_is_an_out_of_memory_error),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
