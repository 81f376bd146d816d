// Backend selection: by the program, by RUBBLE_BACKEND, automatic; and how a backend that cannot
// start is reported (module missing, not a module, wrong ABI, no device) — never a silent fallback.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rb_config.h"
#include "rubble.h"

// With the OpenCL module built, "cannot start" is made certain on any machine by asking for a device
// that does not exist.
#define NO_SUCH_DEVICE "no-such-opencl-device"

static void clear_env(void)
{
    unsetenv("RUBBLE_BACKEND");
    unsetenv("RUBBLE_MODULE_PATH");
    unsetenv("RUBBLE_THREADS");
    unsetenv("RUBBLE_OPENCL_DEVICE");
}

static int setup(void **state)
{
    (void)state;
    clear_env();
    return 0;
}

static rb_status create_with(rb_backend backend, rb_world_id *w)
{
    rb_world_def def = rb_default_world_def();
    def.backend = backend;
    return rb_create_world(&def, w);
}

static void test_cpu_backend_by_name_starts(void **state)
{
    (void)state;
    rb_world_id w;
    assert_int_equal(create_with(RB_BACKEND_CPU, &w), RB_OK);
    assert_string_equal(rb_world_backend_name(w), "cpu");
    rb_world_info info;
    assert_int_equal(rb_world_get_info(w, &info), RB_OK);
    assert_non_null(strstr(info.selection, "asked for by the program"));
    assert_true(info.threads >= 1);
    assert_int_equal(rb_destroy_world(w), RB_OK);
}

static void test_auto_takes_cpu_and_says_why(void **state)
{
    (void)state;
    rb_world_id w;
    setenv("RUBBLE_OPENCL_DEVICE", NO_SUCH_DEVICE, 1); // no OpenCL GPU, whatever the machine has
    setenv("RUBBLE_CUDA_DEVICE", "99", 1);              // and no CUDA device either
    assert_int_equal(create_with(RB_BACKEND_AUTO, &w), RB_OK);
    unsetenv("RUBBLE_OPENCL_DEVICE");
    unsetenv("RUBBLE_CUDA_DEVICE");
    assert_string_equal(rb_world_backend_name(w), "cpu");
    rb_world_info info;
    rb_world_get_info(w, &info);
    // auto reports that it looked for both GPU backends before taking the CPU
    assert_non_null(strstr(info.selection, "auto"));
    assert_non_null(strstr(info.selection, "cuda not used"));
    assert_non_null(strstr(info.selection, "opencl not used"));
    assert_non_null(strstr(info.selection, "took cpu"));
    rb_destroy_world(w);
}

static void test_opencl_by_name_fails_with_reason_and_no_fallback(void **state)
{
    (void)state;
    rb_world_id w = rb_null_world_id;
    setenv("RUBBLE_OPENCL_DEVICE", NO_SUCH_DEVICE, 1);
    rb_status s = create_with(RB_BACKEND_OPENCL, &w);
    unsetenv("RUBBLE_OPENCL_DEVICE");
    assert_int_equal(s, RB_ERR_BACKEND_UNAVAILABLE);
    assert_false(rb_world_is_valid(w));
    const char *msg = rb_last_error(rb_null_world_id);
    assert_non_null(strstr(msg, "backend 'opencl'"));
    assert_non_null(strstr(msg, "cannot start"));
    if (RB_BUILT_OPENCL) {
        // the module loads; the reason is the device (or, on a machine without a driver, the platform)
        assert_true(strstr(msg, NO_SUCH_DEVICE) || strstr(msg, "no OpenCL platform"));
    } else {
        assert_non_null(strstr(msg, "librubble-opencl.so"));
        assert_non_null(strstr(msg, "not found"));
    }
}

// Without a CUDA GPU (as in CI) asking for CUDA is an error that says why: the module is not built,
// or it is and finds no driver or device ("no CUDA device: ..."). With one, the world runs there.
static void test_cuda_by_name_starts_or_fails_with_reason(void **state)
{
    (void)state;
    rb_backend_info info;
    assert_int_equal(rb_backend_probe(RB_BACKEND_CUDA, &info), RB_OK);
    assert_int_equal(info.built, RB_BUILT_CUDA);
    rb_world_id w = rb_null_world_id;
    rb_status s = create_with(RB_BACKEND_CUDA, &w);
    if (info.available) {
        assert_int_equal(s, RB_OK);
        assert_string_equal(rb_world_backend_name(w), "cuda");
        rb_destroy_world(w);
        return;
    }
    assert_int_equal(s, RB_ERR_BACKEND_UNAVAILABLE);
    assert_false(rb_world_is_valid(w));
    const char *msg = rb_last_error(rb_null_world_id);
    assert_non_null(strstr(msg, "backend 'cuda'"));
    assert_non_null(strstr(msg, "cannot start"));
    if (RB_BUILT_CUDA)
        assert_non_null(strstr(msg, "no CUDA device: "));
    else
        assert_non_null(strstr(msg, "librubble-cuda.so"));
    // the probe says the same
    assert_non_null(strstr(info.message, RB_BUILT_CUDA ? "no CUDA device: " : "librubble-cuda.so"));
}

static void test_rubble_backend_env_cpu_is_used(void **state)
{
    (void)state;
    setenv("RUBBLE_BACKEND", "CPU", 1); // case-insensitive
    rb_world_id w;
    assert_int_equal(create_with(RB_BACKEND_AUTO, &w), RB_OK);
    rb_world_info info;
    rb_world_get_info(w, &info);
    assert_non_null(strstr(info.selection, "RUBBLE_BACKEND"));
    rb_destroy_world(w);
    clear_env();
}

static void test_rubble_backend_env_opencl_fails_and_names_the_variable(void **state)
{
    (void)state;
    setenv("RUBBLE_BACKEND", "opencl", 1);
    setenv("RUBBLE_OPENCL_DEVICE", NO_SUCH_DEVICE, 1);
    rb_world_id w;
    assert_int_equal(create_with(RB_BACKEND_AUTO, &w), RB_ERR_BACKEND_UNAVAILABLE);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "RUBBLE_BACKEND"));
    clear_env();
}

static void test_rubble_backend_env_bogus_is_an_error(void **state)
{
    (void)state;
    setenv("RUBBLE_BACKEND", "quantum", 1);
    rb_world_id w;
    assert_int_equal(create_with(RB_BACKEND_AUTO, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "quantum"));
    clear_env();
}

static void test_program_choice_overrides_environment(void **state)
{
    (void)state;
    // RUBBLE_BACKEND only applies to RB_BACKEND_AUTO
    setenv("RUBBLE_BACKEND", "opencl", 1);
    rb_world_id w;
    assert_int_equal(create_with(RB_BACKEND_CPU, &w), RB_OK);
    rb_destroy_world(w);
    clear_env();
}

static void expect_module_failure(const char *dir_var, const char *expected)
{
    const char *dir = getenv(dir_var);
    if (!dir) {
        fail_msg("%s is not set (run through meson test)", dir_var);
        return;
    }
    setenv("RUBBLE_MODULE_PATH", dir, 1);
    // where the real module is built too, it is found after the fake one: make it fail as well, so the
    // message is the story of both
    setenv("RUBBLE_OPENCL_DEVICE", NO_SUCH_DEVICE, 1);
    rb_world_id w;
    assert_int_equal(create_with(RB_BACKEND_OPENCL, &w), RB_ERR_BACKEND_UNAVAILABLE);
    const char *msg = rb_last_error(rb_null_world_id);
    if (!strstr(msg, expected))
        fail_msg("expected '%s' in: %s", expected, msg);
    // and automatic selection skips the broken module and takes the CPU
    assert_int_equal(create_with(RB_BACKEND_AUTO, &w), RB_OK);
    assert_string_equal(rb_world_backend_name(w), "cpu");
    rb_destroy_world(w);
    clear_env();
}

static void test_module_without_entry_point_is_rejected(void **state)
{
    (void)state;
    expect_module_failure("FAKE_MODULE_NO_SYMBOL", "not a rubble backend module");
}

static void test_module_with_other_abi_is_rejected(void **state)
{
    (void)state;
    expect_module_failure("FAKE_MODULE_WRONG_ABI", "built for backend ABI");
}

static void test_module_without_device_reports_the_module_reason(void **state)
{
    (void)state;
    expect_module_failure("FAKE_MODULE_NO_DEVICE", "no OpenCL device: fake module for tests");
}

static void test_probe_reports_cpu_available_and_gpu_not_built(void **state)
{
    (void)state;
    rb_backend_info info;
    assert_int_equal(rb_backend_probe(RB_BACKEND_CPU, &info), RB_OK);
    assert_true(info.built);
    assert_true(info.available);
    assert_string_equal(info.name, "cpu");
    assert_true(strlen(info.device) > 0);
    assert_int_equal(rb_backend_probe(RB_BACKEND_OPENCL, &info), RB_OK);
    if (RB_BUILT_OPENCL) {
        // built: available where a device is, else the reason; either way something to read
        assert_true(info.built);
        assert_true(info.available ? strlen(info.device) > 0 : strlen(info.message) > 0);
    } else {
        assert_false(info.available);
        assert_non_null(strstr(info.message, "librubble-opencl.so"));
    }
    assert_int_equal(rb_backend_probe(RB_BACKEND_AUTO, &info), RB_ERR_INVALID_ARGUMENT);
}

static void test_threads_come_from_rubble_threads(void **state)
{
    (void)state;
    setenv("RUBBLE_THREADS", "3", 1);
    rb_world_id w;
    assert_int_equal(create_with(RB_BACKEND_CPU, &w), RB_OK);
    rb_world_info info;
    rb_world_get_info(w, &info);
    assert_int_equal(info.threads, 3);
    rb_destroy_world(w);
    setenv("RUBBLE_THREADS", "lots", 1);
    assert_int_equal(create_with(RB_BACKEND_CPU, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "RUBBLE_THREADS"));
    clear_env();
}

static void test_cpu_default_solver_is_soft(void **state)
{
    (void)state;
    // RB_SOLVER_DEFAULT resolves to the backend's choice (the CPU's is the soft step solver; the GPU
    // backends' batched, test_gpu_backend.c), at creation and in rb_world_set_solver
    rb_world_id w;
    assert_int_equal(create_with(RB_BACKEND_CPU, &w), RB_OK);
    rb_world_def d;
    assert_int_equal(rb_world_get_def(w, &d), RB_OK);
    assert_int_equal(d.solver, RB_SOLVER_SOFT);
    assert_int_equal(rb_world_set_solver(w, RB_SOLVER_BATCHED), RB_OK);
    assert_int_equal(rb_world_get_def(w, &d), RB_OK);
    assert_int_equal(d.solver, RB_SOLVER_BATCHED);
    assert_int_equal(rb_world_set_solver(w, RB_SOLVER_DEFAULT), RB_OK);
    assert_int_equal(rb_world_get_def(w, &d), RB_OK);
    assert_int_equal(d.solver, RB_SOLVER_SOFT);
    rb_destroy_world(w);
}

static void test_names_round_trip(void **state)
{
    (void)state;
    rb_backend b;
    assert_int_equal(rb_backend_from_name("cuda", &b), RB_OK);
    assert_int_equal(b, RB_BACKEND_CUDA);
    assert_string_equal(rb_backend_name(RB_BACKEND_OPENCL), "opencl");
    assert_int_equal(rb_backend_from_name("gpu", &b), RB_ERR_INVALID_ARGUMENT);
    rb_solver s;
    assert_int_equal(rb_solver_from_name("batched", &s), RB_OK);
    assert_int_equal(s, RB_SOLVER_BATCHED);
    assert_int_equal(rb_solver_from_name("magic", &s), RB_ERR_INVALID_ARGUMENT);
    assert_string_equal(rb_status_string(RB_ERR_BACKEND_UNAVAILABLE), "backend unavailable");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_cpu_backend_by_name_starts, setup),
        cmocka_unit_test_setup(test_auto_takes_cpu_and_says_why, setup),
        cmocka_unit_test_setup(test_opencl_by_name_fails_with_reason_and_no_fallback, setup),
        cmocka_unit_test_setup(test_cuda_by_name_starts_or_fails_with_reason, setup),
        cmocka_unit_test_setup(test_rubble_backend_env_cpu_is_used, setup),
        cmocka_unit_test_setup(test_rubble_backend_env_opencl_fails_and_names_the_variable, setup),
        cmocka_unit_test_setup(test_rubble_backend_env_bogus_is_an_error, setup),
        cmocka_unit_test_setup(test_program_choice_overrides_environment, setup),
        cmocka_unit_test_setup(test_module_without_entry_point_is_rejected, setup),
        cmocka_unit_test_setup(test_module_with_other_abi_is_rejected, setup),
        cmocka_unit_test_setup(test_module_without_device_reports_the_module_reason, setup),
        cmocka_unit_test_setup(test_probe_reports_cpu_available_and_gpu_not_built, setup),
        cmocka_unit_test_setup(test_threads_come_from_rubble_threads, setup),
        cmocka_unit_test_setup(test_cpu_default_solver_is_soft, setup),
        cmocka_unit_test_setup(test_names_round_trip, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
