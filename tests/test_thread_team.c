// The CPU backend's thread team (backend-cpu/thread_team.h) on a simulated machine: the team shrinks
// when its threads wait for a CPU, is probed with the full team again with exponential back-off, and
// grows back once the machine is free; and a world stepped while the team changes gives bitwise the
// results of one thread and of the full team.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cpu_context.h"
#include "physics_util.h"
#include "thread_team.h"
#include "world.h"

// ---------------------------------------------------------------------------------------------
// A simulated machine: a clock the test advances, and per-thread run delays it adds up.
// ---------------------------------------------------------------------------------------------

typedef struct sim {
    double clock_ms;
    double busy_cpus;     // CPUs another process keeps busy
    int cpus;             // the machine's
    int threads_seen;     // the team of the last capture
    int captures;
    int probes_run;
    int measurable;       // 0: the machine cannot tell the run delay
    uint64_t delay_ns[RB_TEAM_WATCH_MAX];
} sim;

static double sim_now(rb_thread_team *t) { return ((sim *)t->src.user)->clock_ms; }

static int sim_capture(rb_thread_team *t, int team)
{
    sim *m = t->src.user;
    m->threads_seen = team;
    m->captures++;
    return m->measurable ? team : 0;
}

static int sim_waited(rb_thread_team *t, int n, uint64_t *out)
{
    sim *m = t->src.user;
    memcpy(out, m->delay_ns, sizeof *out * (size_t)n);
    return m->measurable;
}

// With `busy_cpus` taken, a team of n threads waits, in threads' worth, max(0, n + busy - cpus) of
// the time.
static double sim_over(const sim *m, int team)
{
    double over = team + m->busy_cpus - m->cpus;
    return over > 0 ? over : 0;
}

static int sim_probe(rb_thread_team *t, int team, double budget_ms, double *wall_ms, double *waited_ms)
{
    sim *m = t->src.user;
    m->threads_seen = team;
    m->probes_run++;
    m->clock_ms += budget_ms;
    *wall_ms = budget_ms;
    *waited_ms = budget_ms * sim_over(m, team);
    return m->measurable;
}

static void sim_team(rb_thread_team *t, sim *m, int threads, int cpus)
{
    memset(m, 0, sizeof *m);
    m->measurable = 1;
    m->cpus = cpus;
    rb_team_source src = {sim_now, sim_capture, sim_waited, sim_probe, m};
    rb_team_init_with(t, threads, &src);
}

// One step of `ms`. Returns the step's team.
static int sim_step(rb_thread_team *t, sim *m, double ms)
{
    int team = rb_team_begin_step(t);
    assert_true(team >= 1 && team <= t->threads);
    m->clock_ms += ms;
    double over = sim_over(m, team);
    if (team > 1 && over > 0)
        for (int i = 0; i < team; ++i)
            m->delay_ns[i] += (uint64_t)(ms * 1e6 * over / team);
    rb_team_end_step(t);
    return team;
}

// An idle machine: one thread until the first probe (after RB_TEAM_MIN_WAIT_MS of steps), then the
// full team, which stays: nothing shrinks, nothing more is probed.
static void test_idle_keeps_full_team(void **state)
{
    (void)state;
    rb_thread_team t;
    sim m;
    sim_team(&t, &m, 2, 2);
    int first_full = -1;
    for (int i = 0; i < 2000; ++i) {
        int team = sim_step(&t, &m, 1.8);
        if (first_full < 0 && team == 2)
            first_full = i;
        if (first_full >= 0)
            assert_int_equal(team, 2);
    }
    assert_true(first_full >= 0 && first_full * 1.8 <= RB_TEAM_MIN_WAIT_MS + 1.8);
    assert_int_equal(t.shrinks, 0);
    assert_int_equal(t.probes, 1);
    assert_int_equal(t.failed_probes, 0);
    assert_true(t.windows >= 1990 / 3 - 1); // windows of 3 steps (5.4 ms)
    rb_team_free(&t);
}

// A core busy from the start: the first probe fails, so no step ever runs with the starved team.
static void test_busy_from_the_start(void **state)
{
    (void)state;
    rb_thread_team t;
    sim m;
    sim_team(&t, &m, 2, 2);
    m.busy_cpus = 1;
    for (int i = 0; i < 5000; ++i)
        assert_int_equal(sim_step(&t, &m, 2.0), 1);
    assert_true(t.probes >= 5);
    assert_int_equal(t.failed_probes, t.probes);
    assert_int_equal(t.windows, 0);
    rb_team_free(&t);
}

// A busy core: the team shrinks to one thread within a window, probes the full team again after
// waits that double, never steps with the starved team again while the core stays busy, and returns
// to two threads once the core is free.
static void test_busy_shrinks_and_probes_with_backoff(void **state)
{
    (void)state;
    rb_thread_team t;
    sim m;
    sim_team(&t, &m, 2, 2);
    for (int i = 0; i < 100; ++i)
        sim_step(&t, &m, 2.0);
    m.busy_cpus = 1;
    int steps = 0;
    while (t.team == 2 && steps < 100) {
        sim_step(&t, &m, 2.0);
        steps++;
    }
    assert_int_equal(t.team, 1);
    assert_true(steps * 2.0 <= 2 * (RB_TEAM_WINDOW_MS + 2.0)); // the first whole window that is busy
    assert_int_equal(t.shrinks, 1);

    // busy for 20 s of steps: the probes' intervals double (until the cap), no step has the full team
    int full_steps = 0, total = 10000, last_probe = -1, probe_count = 0, runs0 = m.probes_run;
    double last_gap = 0;
    for (int i = 0; i < total; ++i) {
        int probes_before = t.probes;
        int team = sim_step(&t, &m, 2.0);
        full_steps += team == 2;
        if (t.probes > probes_before) {
            if (last_probe >= 0) {
                double gap = (i - last_probe) * 2.0;
                if (probe_count >= 2)
                    assert_true(gap >= 1.9 * last_gap || gap >= RB_TEAM_MAX_WAIT_MS);
                last_gap = gap;
            }
            last_probe = i;
            probe_count++;
        }
    }
    assert_true(probe_count >= 5);               // it does try again
    assert_int_equal(probe_count, m.probes_run - runs0);
    assert_int_equal(t.failed_probes, t.probes - 1); // every try fails on the busy machine (the first,
                                                     // on the idle one at the start, passed)
    assert_true(t.backoff >= 5);
    assert_int_equal(full_steps, 0);             // the probes kept the starved team off the steps
    assert_true(probe_count * RB_TEAM_PROBE_MS < 0.02 * total * 2.0); // and cost under 2 %
    assert_int_equal(t.team, 1);
    assert_int_equal(t.shrinks, 1);

    // the core is free again: the next probe passes and the team stays full
    m.busy_cpus = 0;
    int i = 0;
    while (t.team == 1 && i < 2000) {
        sim_step(&t, &m, 2.0);
        i++;
    }
    assert_true(i * 2.0 <= RB_TEAM_MAX_WAIT_MS + 2.0);
    assert_int_equal(t.probing, 1); // the probe passed; the next window confirms it
    int failed = t.failed_probes;
    for (i = 0; i < 2000; ++i)
        assert_int_equal(sim_step(&t, &m, 2.0), 2);
    assert_int_equal(t.failed_probes, failed);
    assert_int_equal(t.probing, 0);

    // busy again for a moment, then free: one shrink, one probe that fails, one that passes
    m.busy_cpus = 1;
    for (i = 0; i < 3; ++i)
        sim_step(&t, &m, 2.0);
    assert_int_equal(t.team, 1);
    m.busy_cpus = 0;
    for (i = 0; i < 2000 && t.team == 1; ++i)
        sim_step(&t, &m, 2.0);
    assert_int_equal(t.team, 2);
    rb_team_free(&t);
}

// A probe that passes while the steps after it starve (the machine is busy only when the steps run):
// the window after the probe shrinks the team again and counts the probe as failed.
static void test_probe_passed_window_starved(void **state)
{
    (void)state;
    rb_thread_team t;
    sim m;
    sim_team(&t, &m, 2, 2);
    assert_int_equal(rb_team_observe_probe(&t, RB_TEAM_PROBE_MS, 0.0), 1);
    assert_int_equal(t.team, 2);
    assert_int_equal(t.failed_probes, 0);
    rb_team_observe(&t, 10.0, 10.0); // starved again
    assert_int_equal(t.team, 1);
    assert_int_equal(t.failed_probes, 1);
    assert_int_equal(t.backoff, 1);
    double first_wait = t.wait_ms;
    assert_int_equal(rb_team_observe_probe(&t, RB_TEAM_PROBE_MS, RB_TEAM_PROBE_MS), 0); // fails itself
    assert_int_equal(t.team, 1);
    assert_int_equal(t.failed_probes, 2);
    assert_true(t.wait_ms >= 1.99 * first_wait);
    rb_team_free(&t);
}

// The team drops the CPUs it did not get: 8 threads with one core busy on 8 cores keep 7.
static void test_shrinks_by_lost_cpus(void **state)
{
    (void)state;
    rb_thread_team t;
    sim m;
    sim_team(&t, &m, 8, 8);
    m.busy_cpus = 1;
    for (int i = 0; i < 20; ++i)
        sim_step(&t, &m, 1.0);
    assert_int_equal(t.team, 7);
    for (int i = 0; i < 20; ++i)
        sim_step(&t, &m, 1.0);
    assert_int_equal(t.team, 7); // 7 threads on the 7 free cores wait for nothing
    rb_team_free(&t);
}

// Waiting shorter than RB_TEAM_STARVED of the step time (a wake-up here and there) changes nothing;
// and where the run delay cannot be read, the team stays full.
static void test_thresholds_and_no_measure(void **state)
{
    (void)state;
    rb_thread_team t;
    sim m;
    sim_team(&t, &m, 2, 2);
    assert_int_equal(t.team, 1); // until the first probe
    assert_int_equal(rb_team_observe_probe(&t, 4.0, 4.0 * RB_TEAM_PROBE_STARVED * 1.1), 0);
    assert_int_equal(t.team, 1);
    assert_int_equal(rb_team_observe_probe(&t, 4.0, 4.0 * RB_TEAM_PROBE_STARVED * 0.9), 1);
    assert_int_equal(t.team, 2);
    rb_team_observe(&t, 10.0, 10.0 * RB_TEAM_STARVED * 0.9);
    assert_int_equal(t.team, 2);
    assert_int_equal(t.probing, 0);
    rb_team_observe(&t, 10.0, 10.0 * RB_TEAM_STARVED * 1.1);
    assert_int_equal(t.team, 1);
    assert_int_equal(t.failed_probes, 1); // only the probe that failed itself
    assert_true(t.wait_ms >= RB_TEAM_MIN_WAIT_MS && t.wait_ms >= RB_TEAM_PROBE_MS * RB_TEAM_AMORTISE);
    rb_team_free(&t);

    sim_team(&t, &m, 2, 2);
    m.measurable = 0;
    m.busy_cpus = 1;
    for (int i = 0; i < 100; ++i) {
        int team = sim_step(&t, &m, 2.0);
        if (i * 2.0 >= RB_TEAM_MIN_WAIT_MS) // the probe could not measure: the full team, as before
            assert_int_equal(team, 2);
    }
    assert_int_equal(m.captures, 3); // and it stops asking
    rb_team_free(&t);

    sim_team(&t, &m, 1, 2); // one thread: nothing to decide, nothing read
    m.busy_cpus = 1;
    for (int i = 0; i < 10; ++i)
        assert_int_equal(sim_step(&t, &m, 2.0), 1);
    assert_int_equal(m.threads_seen, 0);
    rb_team_free(&t);
}

#ifdef _OPENMP
// Whether this kernel keeps scheduler statistics: the calling thread has run, so its schedstat line
// (run time, run delay, slices) has a non-zero run time.
static int have_schedstat(void)
{
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    if (!f)
        return 0;
    unsigned long long on_cpu = 0, delay = 0;
    int ok = fscanf(f, "%llu %llu", &on_cpu, &delay) == 2 && on_cpu > 0;
    fclose(f);
    return ok;
}
#endif

// The real source on this machine: it probes and watches both threads where the kernel keeps
// schedstat (else the feature would silently do nothing), and the team stays within 1 .. threads.
static void test_real_source_runs(void **state)
{
    (void)state;
    rb_thread_team t;
    rb_team_init(&t, 2);
#ifdef _OPENMP
    if (have_schedstat()) {
        double wall = 0, waited = -1;
        assert_int_equal(t.src.probe(&t, 2, 1.0, &wall, &waited), 1);
        assert_true(wall >= 1.0 && waited >= 0);
        assert_int_equal(t.watched, 2);
    } else {
        print_message("no scheduler statistics on this kernel: the team stays full\n");
    }
#endif
    for (int i = 0; i < 50; ++i) {
        if (i == 10)
            t.shrunk_ms = t.wait_ms; // a probe at the next step
        int team = rb_team_begin_step(&t);
        assert_true(team == 1 || team == 2);
        rb_team_end_step(&t);
    }
#ifdef _OPENMP
    assert_int_equal(t.probes, 1);
    assert_int_equal(t.capture_failures, 0);
#endif
    // (without OpenMP there are no threads to watch: the team only has to stay within 1 .. 2)
    rb_team_free(&t);
}

// ---------------------------------------------------------------------------------------------
// A world whose team changes from window to window gives the bits of 1 thread and of 2.
// ---------------------------------------------------------------------------------------------

// Windows starve two times out of three, probes pass every other time: the team goes 2, 1, 2, 1, ...
// with few steps at 2, for this runs beside other tests: on a busy machine a step with the full team
// can cost a hundred times its work.
typedef struct flaky {
    uint64_t delay;
    int reads, probes;
    double clock_ms;
} flaky;

// A step lasts a window (5 ms) with the full team and 10 ms with one thread, so that the waits
// before probes pass within a few steps.
static double flaky_now(rb_thread_team *t)
{
    flaky *f = t->src.user;
    f->clock_ms += t->team == 1 ? 10.0 : RB_TEAM_WINDOW_MS;
    return f->clock_ms;
}

static int flaky_capture(rb_thread_team *t, int team)
{
    (void)t;
    return team;
}

static int flaky_waited(rb_thread_team *t, int n, uint64_t *out)
{
    flaky *f = t->src.user;
    int call = f->reads++; // a window's start, then its end
    if (call % 2 == 1 && call / 2 % 3 != 2)
        f->delay += 100000000; // 100 ms of waiting in this window: starved
    for (int i = 0; i < n; ++i)
        out[i] = f->delay;
    return 1;
}

static int flaky_probe(rb_thread_team *t, int team, double budget_ms, double *wall_ms, double *waited_ms)
{
    (void)team;
    flaky *f = t->src.user;
    *wall_ms = budget_ms;
    *waited_ms = f->probes++ % 2 == 1 ? 0.0 : budget_ms;
    return 1;
}

static uint64_t world_hash(rb_world_id w)
{
    int slots = pu_body_slots(w);
    rb_transform *tr = calloc((size_t)slots, sizeof *tr);
    rb_vec3 *v = calloc((size_t)slots, sizeof *v), *av = calloc((size_t)slots, sizeof *av);
    assert_non_null(tr);
    assert_non_null(v);
    assert_non_null(av);
    RB_CHECK(rb_world_get_transforms(w, 0, slots, tr));
    RB_CHECK(rb_world_get_velocities(w, 0, slots, v, av));
    uint64_t h = 1469598103934665603ull; // FNV-1a over the bytes
    const unsigned char *parts[3] = {(const void *)tr, (const void *)v, (const void *)av};
    size_t sizes[3] = {sizeof *tr * (size_t)slots, sizeof *v * (size_t)slots, sizeof *av * (size_t)slots};
    for (int p = 0; p < 3; ++p)
        for (size_t i = 0; i < sizes[p]; ++i)
            h = (h ^ parts[p][i]) * 1099511628211ull;
    free(tr);
    free(v);
    free(av);
    return h;
}

static rb_world_id make_world(const char *scene, rb_solver solver, int threads)
{
    rb_world_def d = rb_default_world_def();
    d.backend = RB_BACKEND_CPU;
    d.solver = solver;
    d.threads = threads;
    d.enable_sleep = false;
    rb_world_id w;
    RB_CHECK(rb_create_world(&d, &w));
    RB_CHECK(rb_build_standard_scene(w, scene, 1));
    return w;
}

static void check_identical_whatever_the_team(const char *scene, rb_solver solver, int steps)
{
    uint64_t h[3];
    int shrinks = 0, probes = 0;
    for (int run = 0; run < 3; ++run) {
        int threads = run == 0 ? 1 : 2;
        rb_world_id w = make_world(scene, solver, threads);
        flaky f;
        memset(&f, 0, sizeof f);
        rb_thread_team *team = NULL;
        rb_cpu_ctx *ctx = NULL;
        if (run == 2) { // the team is told it starves in most windows and that every other probe passes
            rb_status s;
            rb_world *world = rb_get_world(w, &s);
            assert_non_null(world);
            ctx = (rb_cpu_ctx *)world->backend;
            team = ctx->thread_team;
            rb_team_source src = {flaky_now, flaky_capture, flaky_waited, flaky_probe, &f};
            rb_team_free(team);
            rb_team_init_with(team, 2, &src);
        }
        int teams_seen = 0;
        for (int i = 0; i < steps; ++i) {
            RB_CHECK(rb_world_step(w));
            if (ctx) // the team the step ran with (set at its start)
                teams_seen |= 1 << (ctx->team - 1);
        }
        if (team) {
            shrinks = team->shrinks;
            probes = team->probes;
            assert_int_equal(teams_seen, 3); // both team sizes were used
        }
        h[run] = world_hash(w);
        rb_destroy_world(w);
    }
    assert_true(shrinks >= 2);
    assert_true(probes >= 2);
    assert_true(h[0] == h[1]);
    assert_true(h[0] == h[2]);
}

static void test_identical_batched(void **state)
{
    (void)state;
    check_identical_whatever_the_team("pyramid", RB_SOLVER_BATCHED, 60);
}

static void test_identical_sequential(void **state)
{
    (void)state;
    check_identical_whatever_the_team("stack", RB_SOLVER_SEQUENTIAL, 150);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_keeps_full_team),
        cmocka_unit_test(test_busy_from_the_start),
        cmocka_unit_test(test_busy_shrinks_and_probes_with_backoff),
        cmocka_unit_test(test_probe_passed_window_starved),
        cmocka_unit_test(test_shrinks_by_lost_cpus),
        cmocka_unit_test(test_thresholds_and_no_measure),
        cmocka_unit_test(test_real_source_runs),
        cmocka_unit_test(test_identical_batched),
        cmocka_unit_test(test_identical_sequential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
