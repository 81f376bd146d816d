// Settled standard scenes fall asleep: the `pile` (8000 spheres dropped into a pen) and `boxes` (4096
// cubes turned at random, dropped) scenes of docs/bench-scenes.md, built by rb_build_standard_scene,
// with sleeping on. Both have settled within a few seconds of falling; a body at rest must then be put
// to sleep, or a settled scene costs as much as a moving one for ever. Every body asleep within 10 s
// (600 steps of 1/60 s). Heavy (thousands of bodies in contact, 600 steps each, one thread), so this
// file is apart from the other physics tests and has its own timeout (tests/meson.build); a scene stops
// stepping as soon as every body sleeps. The solver is the CPU default, or the one RUBBLE_TEST_SOLVER
// names (physics_util.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "physics_util.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Dynamic bodies whose awake flag is set (rb_world_get_awake; `slots` lists the dynamic bodies).
static int awake_dynamic_bodies(rb_world_id w, const int *slots, int n, bool *flags, int total)
{
    RB_CHECK(rb_world_get_awake(w, 0, total, flags));
    int awake = 0;
    for (int i = 0; i < n; ++i)
        awake += flags[slots[i]];
    return awake;
}

// Builds `scene` with sleeping on and steps until no body is awake, at most 600 steps; fails unless
// every body is asleep by then.
static void scene_falls_asleep(const char *scene, int bodies)
{
    rb_world_def d = pu_world_def(true);
    rb_world_id w = pu_make_world_from(&d);
    RB_CHECK(rb_build_standard_scene(w, scene, 1));
    int n, total = pu_body_slots(w);
    int *slots = pu_dynamic_slots(w, &n);
    bool *flags = calloc((size_t)total, sizeof *flags);
    assert_non_null(flags);
    assert_int_equal(n, bodies);
    double t0 = now_s();
    int step = 0, awake = n, awake_at[4] = {-1, -1, -1, -1};
    while (step < 600 && awake > 0) {
        pu_step(w, 1);
        ++step;
        awake = awake_dynamic_bodies(w, slots, n, flags, total);
        if (step % 150 == 0)
            awake_at[step / 150 - 1] = awake;
    }
    double wall = now_s() - t0;
    rb_counters c;
    RB_CHECK(rb_world_get_counters(w, &c));
    print_message("%s: %s after %d steps (%.2f s simulated, %.1f s wall, %.1f ms/step); awake at 2.5/5/7.5/10 s: %d %d "
                  "%d %d; at the end %d of %d (counter: %d)\n",
                  scene, awake == 0 ? "all asleep" : "NOT all asleep", step, step * (double)PU_H, wall,
                  1e3 * wall / step, awake_at[0], awake_at[1], awake_at[2], awake_at[3], awake, n, c.awake_bodies);
    if (awake > 0) {
        // what keeps them awake: the fastest body, and how many move faster than the island sleep
        // tolerances (0.05 m/s, 2 deg/s)
        rb_vec3 *v = calloc((size_t)total, sizeof *v), *om = calloc((size_t)total, sizeof *om);
        assert_non_null(v);
        assert_non_null(om);
        RB_CHECK(rb_world_get_velocities(w, 0, total, v, om));
        double vmax = 0.0, wmax = 0.0;
        int fast = 0, spinning = 0;
        for (int i = 0; i < n; ++i) {
            double lv = v3_len(v[slots[i]]), lw = v3_len(om[slots[i]]);
            vmax = lv > vmax ? lv : vmax;
            wmax = lw > wmax ? lw : wmax;
            fast += lv > d.linear_sleep_tolerance;
            spinning += lw > d.angular_sleep_tolerance;
        }
        print_message("%s after 10 s: max |v| %.4g m/s, max |w| %.4g rad/s; %d bodies faster than %.3g m/s, %d spin "
                      "faster than %.3g rad/s\n",
                      scene, vmax, wmax, fast, (double)d.linear_sleep_tolerance, spinning,
                      (double)d.angular_sleep_tolerance);
        free(v);
        free(om);
    }
    free(flags);
    free(slots);
    rb_destroy_world(w);
    if (awake > 0)
        fail_msg("%s: %d of %d bodies still awake after 10 s", scene, awake, n);
}

static void test_settled_pile_of_8000_spheres_is_all_asleep_within_ten_seconds(void **state)
{
    (void)state;
    // 8000 unit-mass spheres of radius 0.5 in a 20 × 20 × 20 grid 1.1 m apart, the top at 21.9 m:
    // they fall for sqrt(2 · 21.4 / 9.81) = 2.1 s, then settle; all asleep by 10 s.
    scene_falls_asleep("pile", 8000);
}

static void test_settled_scene_of_4096_tumbled_cubes_is_all_asleep_within_ten_seconds(void **state)
{
    (void)state;
    // 4096 cubes of 0.5 m in a 16 × 16 × 16 grid 1 m apart, turned at random, the top at 16 m: they
    // fall for sqrt(2 · 15.75 / 9.81) = 1.8 s, then settle; all asleep by 10 s.
    scene_falls_asleep("boxes", 4096);
}

// RUBBLE_SLEEP_SCENES=boxes runs the boxes alone: the figure reached, which CI runs (tests/meson.build);
// the suite `targets` runs both.
int main(void)
{
    const struct CMUnitTest both[] = {
        cmocka_unit_test(test_settled_pile_of_8000_spheres_is_all_asleep_within_ten_seconds),
        cmocka_unit_test(test_settled_scene_of_4096_tumbled_cubes_is_all_asleep_within_ten_seconds),
    };
    const struct CMUnitTest boxes[] = {
        cmocka_unit_test(test_settled_scene_of_4096_tumbled_cubes_is_all_asleep_within_ten_seconds),
    };
    const char *only = getenv("RUBBLE_SLEEP_SCENES");
    if (only && strcmp(only, "boxes") == 0)
        return cmocka_run_group_tests(boxes, NULL, NULL);
    return cmocka_run_group_tests(both, NULL, NULL);
}
