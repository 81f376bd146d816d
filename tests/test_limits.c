// What rubble refuses and what it promises when it refuses (docs/limits.md): the pair budget that keeps
// an overlapping heap from eating the machine, documented rules that are enforced, outputs that must not
// be NULL, messages that rb_last_error finds, environment variables that are checked, and a failed step
// that reports no half-made contacts. Runs on the CPU, and on OpenCL / CUDA with RUBBLE_TEST_BACKEND.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "physics_util.h"

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// n spheres of radius r all at (nearly) one point: every two of them overlap.
static void add_heap(rb_world_id w, int n, float r)
{
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    rb_shape_def sd = rb_default_shape_def();
    rb_sphere s = {r};
    for (int i = 0; i < n; ++i) {
        bd.position = v3(1e-4f * (float)(i % 7), 2.0f + 1e-4f * (float)(i % 5), 1e-4f * (float)(i % 3));
        rb_body_id b;
        rb_shape_id sh;
        RB_CHECK(rb_create_body(w, &bd, &b));
        RB_CHECK(rb_create_sphere_shape(b, &sd, &s, &sh));
    }
}

// 10,000 spheres created at one point have 50 million candidate pairs: with the default budget
// (32 per shape + 65,536 = 385,536) the step fails with RB_ERR_CAPACITY and a message with the budget,
// the bodies are left where they were, and memory stays bounded (it grew to 24 GB before the budget).
static void test_overlapping_heap_hits_the_pair_budget(void **state)
{
    (void)state;
    rb_world_def d = pu_world_def(false);
    d.threads = 2;
    rb_world_id w = pu_make_world_from(&d);
    add_heap(w, 10000, 0.1f);
    rb_transform before[3];
    for (int i = 0; i < 3; ++i) {
        rb_body_id id;
        RB_CHECK(rb_world_get_body_id(w, i * 4999, &id));
        RB_CHECK(rb_body_get_transform(id, &before[i]));
    }
    long rss0 = rss_kib();
    rb_status s = rb_world_step(w);
    long grew = rss_kib() - rss0;
    assert_int_equal(s, RB_ERR_CAPACITY);
    const char *msg = rb_last_error(w);
    assert_non_null(strstr(msg, "max_pairs"));
    assert_non_null(strstr(msg, "385536"));
    // the pairs kept before stopping cost 8 bytes each per thread; 2 threads, 385,537 at most
    assert_true(grew < 64 * 1024);
    for (int i = 0; i < 3; ++i) {
        rb_body_id id;
        rb_transform t;
        RB_CHECK(rb_world_get_body_id(w, i * 4999, &id));
        RB_CHECK(rb_body_get_transform(id, &t));
        assert_memory_equal(&t, &before[i], sizeof t);
    }
    // the failed step reports no pairs or contacts, and its counters are the last completed step's
    int pairs = -1, contacts = -1;
    RB_CHECK(rb_world_get_pair_count(w, &pairs));
    RB_CHECK(rb_world_get_contact_count(w, &contacts));
    assert_int_equal(pairs, 0);
    assert_int_equal(contacts, 0);
    rb_counters c;
    RB_CHECK(rb_world_get_counters(w, &c));
    assert_int_equal(c.pairs, 0);
    RB_CHECK(rb_destroy_world(w));
}

// The budget is exact: 300 overlapping spheres have 300·299/2 = 44,850 pairs (and no ground). A
// budget of 44,850 steps; 44,849 fails, and a later step in a world with room completes.
static void test_pair_budget_is_exact(void **state)
{
    (void)state;
    for (int round = 0; round < 2; ++round) {
        rb_world_def d = pu_world_def(false);
        d.gravity = v3(0.0f, 0.0f, 0.0f);
        d.max_pairs = round == 0 ? 44850 : 44849;
        rb_world_id w = pu_make_world_from(&d);
        add_heap(w, 300, 0.1f);
        rb_status s = rb_world_step(w);
        if (round == 0) {
            assert_int_equal(s, RB_OK);
            int pairs;
            RB_CHECK(rb_world_get_pair_count(w, &pairs));
            assert_int_equal(pairs, 44850);
            rb_counters c;
            RB_CHECK(rb_world_get_counters(w, &c));
            assert_int_equal(c.pairs, 44850);
        } else {
            assert_int_equal(s, RB_ERR_CAPACITY);
            assert_non_null(strstr(rb_last_error(w), "44849"));
        }
        RB_CHECK(rb_destroy_world(w));
    }
    rb_world_def d = pu_world_def(false);
    d.max_pairs = -1;
    rb_world_id w;
    assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), "max_pairs"));
}

// A step that fails leaves the bodies as they were, on every solver: the sequential solver moves the
// bodies before it looks for contacts (Schornbaum's order), so its failed step must put them back.
static void test_failed_step_leaves_bodies(void **state)
{
    (void)state;
    rb_solver solvers[] = {RB_SOLVER_SOFT, RB_SOLVER_BATCHED, RB_SOLVER_SPLIT, RB_SOLVER_SEQUENTIAL};
    for (int k = 0; k < 4; ++k) {
        rb_world_def d = pu_world_def(false);
        d.solver = solvers[k];
        d.max_pairs = 100;
        rb_world_id w;
        if (rb_create_world(&d, &w) == RB_ERR_UNSUPPORTED)
            continue; // a GPU backend without this solver
        add_heap(w, 30, 0.1f); // 435 pairs
        rb_body_id b;
        RB_CHECK(rb_world_get_body_id(w, 7, &b));
        RB_CHECK(rb_body_set_linear_velocity(b, v3(1.0f, 2.0f, 3.0f)));
        rb_transform t0, t1;
        rb_vec3 v0, v1;
        RB_CHECK(rb_body_get_transform(b, &t0));
        RB_CHECK(rb_body_get_linear_velocity(b, &v0));
        assert_int_equal(rb_world_step(w), RB_ERR_CAPACITY);
        RB_CHECK(rb_body_get_transform(b, &t1));
        RB_CHECK(rb_body_get_linear_velocity(b, &v1));
        assert_memory_equal(&t0, &t1, sizeof t0);
        assert_memory_equal(&v0, &v1, sizeof v0);
        RB_CHECK(rb_destroy_world(w));
    }
}

// A world that never had a body steps (this was memset(NULL, 0, 0), undefined behaviour).
static void test_empty_world_steps(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world(true);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(rb_world_step(w), RB_OK);
    rb_counters c;
    RB_CHECK(rb_world_get_counters(w, &c));
    assert_int_equal(c.bodies, 0);
    RB_CHECK(rb_destroy_world(w));
}

// Every getter refuses a NULL output with a message (position and rotation returned RB_OK).
static void test_null_outputs_refused(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world(false);
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    rb_body_id b;
    RB_CHECK(rb_create_body(w, &bd, &b));
    assert_int_equal(rb_body_get_position(b, NULL), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "rb_body_get_position"));
    assert_int_equal(rb_body_get_rotation(b, NULL), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "rb_body_get_rotation"));
    assert_int_equal(rb_body_is_bullet(b, NULL), RB_ERR_INVALID_ARGUMENT);
    rb_vec3 p;
    RB_CHECK(rb_body_get_position(b, &p));
    RB_CHECK(rb_destroy_world(w));
}

// A call that fails on an id naming no world (null, malformed, of a destroyed world) is what
// rb_last_error(world) reports when it came after the world's own last failure; a new world does not
// inherit an older failure.
static void test_last_error_is_fresh(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world(false);
    assert_string_equal(rb_last_error(w), "");
    assert_int_equal(rb_world_set_gravity(w, v3(NAN, 0.0f, 0.0f)), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "gravity"));
    rb_vec3 p;
    assert_int_equal(rb_body_get_position(rb_null_body_id, &p), RB_ERR_STALE_ID);
    assert_non_null(strstr(rb_last_error(w), "body id"));
    rb_shape_id bad = {-5, 3, 1};
    float f;
    assert_int_equal(rb_shape_get_friction(bad, &f), RB_ERR_STALE_ID);
    assert_non_null(strstr(rb_last_error(w), "shape id"));
    // the world's own failure after that wins again
    assert_int_equal(rb_world_set_time_step(w, -1.0f, 0), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "time_step"));
    // a world created after a failure starts clean
    rb_world_id w2 = pu_make_world(false);
    assert_string_equal(rb_last_error(w2), "");
    RB_CHECK(rb_destroy_world(w2));
    RB_CHECK(rb_destroy_world(w));
}

// sequential.sleep_threshold "must be < |g| h": 0.1 and 1000 m/s were accepted, and a ball released in
// mid-air fell asleep at once. At 1/60 s and 3 substeps |g| h = 0.0545 m/s.
static void test_sleep_threshold_rule(void **state)
{
    (void)state;
    rb_world_def d = pu_world_def(true);
    d.backend = RB_BACKEND_CPU; // the rule is the sequential solver's, which the CPU runs
    d.solver = RB_SOLVER_SEQUENTIAL;
    float bad[] = {0.1f, 1000.0f, 0.0546f};
    for (int i = 0; i < 3; ++i) {
        d.sequential.sleep_threshold = bad[i];
        rb_world_id w;
        assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(rb_last_error(rb_null_world_id), "sleep_threshold"));
    }
    d.sequential.sleep_threshold = 0.05f;
    rb_world_id w = pu_make_world_from(&d);
    // a longer substep is fine, a shorter one would break the rule: refused, settings unchanged
    RB_CHECK(rb_world_set_time_step(w, 1.0f / 30.0f, 0));
    assert_int_equal(rb_world_set_time_step(w, 1.0f / 120.0f, 0), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "sleep_threshold"));
    float h;
    int n;
    RB_CHECK(rb_world_get_time_step(w, &h, &n));
    assert_float_equal(h, 1.0f / 30.0f, 0.0f);
    rb_world_def got;
    RB_CHECK(rb_world_get_def(w, &got));
    got.sequential.sleep_threshold = 2.0f;
    assert_int_equal(rb_world_set_sequential(w, &got.sequential), RB_ERR_INVALID_ARGUMENT);
    RB_CHECK(rb_world_set_time_step(w, 1.0f / 60.0f, 0));
    // a ball released at rest in mid-air falls freely: y = 10 - g t²/2 within a substep's motion
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    bd.position = v3(0.0f, 10.0f, 0.0f);
    rb_body_id b;
    rb_shape_id sh;
    RB_CHECK(rb_create_body(w, &bd, &b));
    rb_sphere s = {0.1f};
    rb_shape_def sd = rb_default_shape_def();
    RB_CHECK(rb_create_sphere_shape(b, &sd, &s, &sh));
    for (int i = 0; i < 60; ++i)
        RB_CHECK(rb_world_step(w));
    rb_vec3 p;
    RB_CHECK(rb_body_get_position(b, &p));
    bool awake;
    RB_CHECK(rb_body_is_awake(b, &awake));
    assert_true(awake);
    assert_true(fabsf(p.y - (10.0f - 0.5f * PU_G)) < 0.1f);
    RB_CHECK(rb_destroy_world(w));
}

// Environment variables are checked: a negative memory limit meant "no limit", a profile switch took
// any text as "off".
static void test_environment_checked(void **state)
{
    (void)state;
    const char *backend = getenv("RUBBLE_TEST_BACKEND");
    if (!backend || (strcmp(backend, "opencl") != 0 && strcmp(backend, "cuda") != 0)) {
        // the CPU's: a thread count
        setenv("RUBBLE_THREADS", "-3", 1);
        rb_world_def d = rb_default_world_def();
        d.backend = RB_BACKEND_CPU;
        rb_world_id w;
        assert_int_equal(rb_create_world(&d, &w), RB_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(rb_last_error(rb_null_world_id), "RUBBLE_THREADS"));
        unsetenv("RUBBLE_THREADS");
        skip();
    }
    const char *limit_var = strcmp(backend, "opencl") == 0 ? "RUBBLE_OPENCL_MEMORY_LIMIT" : "RUBBLE_CUDA_MEMORY_LIMIT";
    const char *profile_var = strcmp(backend, "opencl") == 0 ? "RUBBLE_OPENCL_PROFILE" : "RUBBLE_CUDA_PROFILE";
    const char *bad_limits[] = {"-5", "0", "12Q", "99999999999999999999G"};
    for (int i = 0; i < 4; ++i) {
        setenv(limit_var, bad_limits[i], 1);
        rb_world_def d = pu_world_def(false);
        rb_world_id w;
        rb_status s = rb_create_world(&d, &w);
        assert_int_not_equal(s, RB_OK);
        assert_non_null(strstr(rb_last_error(rb_null_world_id), limit_var));
    }
    unsetenv(limit_var);
    setenv(profile_var, "yes", 1);
    rb_world_def d = pu_world_def(false);
    rb_world_id w;
    assert_int_not_equal(rb_create_world(&d, &w), RB_OK);
    assert_non_null(strstr(rb_last_error(rb_null_world_id), profile_var));
    unsetenv(profile_var);
    RB_CHECK(rb_create_world(&d, &w));
    RB_CHECK(rb_destroy_world(w));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_world_steps),
        cmocka_unit_test(test_null_outputs_refused),
        cmocka_unit_test(test_last_error_is_fresh),
        cmocka_unit_test(test_sleep_threshold_rule),
        cmocka_unit_test(test_pair_budget_is_exact),
        cmocka_unit_test(test_failed_step_leaves_bodies),
        cmocka_unit_test(test_overlapping_heap_hits_the_pair_budget),
        cmocka_unit_test(test_environment_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
