// Restitution: bouncing spheres on a plane.
//
// Continuous physics: a sphere dropped from rest with its lowest point H above the plane rebounds to
// e^2 H. The engine integrates with semi-implicit Euler, which in free flight conserves
// Q = v^2/2 + g y - g h v/2 (v signed, up positive): with v' = v - g h,
// Q' - Q = -g h (v + v')/2 + g h v' + g^2 h^2/2 = 0. Its restitution picks the separating speed
// w = e c - (1 - e) g h / 2 (c the approach speed), which makes the discrete rebound e^2 H up to O(h^2)
// terms: |apex - e^2 H| <= g h^2 (2.7 mm at 60 Hz) plus the once-per-step sampling of the apex,
// g h^2 / 8. Without that correction the rebound is e^2 H + (e - e^2) h c / 2: +13 mm (2.6%) for
// e = 0.5 from 2 m, and +12% for e = 0.25.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "physics_util.h"

#define RADIUS 0.25f
#define DROP_HEIGHT 2.0 // m, of the sphere's lowest point above the plane

// Drops a sphere of restitution e (plane e = 0) from `height` (of its lowest point); returns the first
// rebound's apex (height of the lowest point), sampled once per step.
static double rebound_apex_sleeping(double height, double e, bool sleep)
{
    rb_world_id w = pu_make_world(sleep);
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id b = pu_sphere(w, v3(0.0f, (float)height + RADIUS, 0.0f), RADIUS, 1.0f, 0.6f, (float)e);
    bool rising = false;
    double apex = -1.0;
    for (int k = 0; k < 600; ++k) {
        pu_step(w, 1);
        float vy = pu_velocity(b).y, y = pu_position(b).y - RADIUS;
        if (vy > 0.0f)
            rising = true;
        if (rising && y > apex)
            apex = y;
        if (rising && vy < 0.0f)
            break;
    }
    rb_destroy_world(w);
    return apex;
}

static double rebound_apex_from(double height, double e) { return rebound_apex_sleeping(height, e, false); }

static double first_rebound_apex(double e) { return rebound_apex_from(DROP_HEIGHT, e); }

static void check_rebound(double e)
{
    const double g = (double)PU_G, h = (double)PU_H;
    double expected = e * e * DROP_HEIGHT;
    double tolerance = g * h * h + g * h * h / 8.0;
    double apex = first_rebound_apex(e);
    print_message("e = %.2f: apex %.5f m, e^2 H = %.5f m, allowed +- %.5f m\n", e, apex, expected, tolerance);
    assert_true(fabs(apex - expected) <= tolerance);
}

static void test_sphere_with_restitution_one_quarter_rebounds_to_a_sixteenth_of_its_drop_height(void **state)
{
    (void)state;
    // e = 0.25, H = 2 m: e^2 H = 0.125 m
    check_rebound(0.25);
}

static void test_sphere_with_restitution_one_half_rebounds_to_a_quarter_of_its_drop_height(void **state)
{
    (void)state;
    // e = 0.5, H = 2 m: e^2 H = 0.5 m
    check_rebound(0.5);
}

static void test_sphere_with_restitution_0_8_rebounds_to_0_64_of_its_drop_height(void **state)
{
    (void)state;
    // e = 0.8, H = 2 m: e^2 H = 1.28 m
    check_rebound(0.8);
}

static void test_the_rebound_does_not_depend_on_where_in_a_step_the_sphere_lands(void **state)
{
    (void)state;
    // e = 0.5 from 60 heights between 0.30 and 2.95 m, in steps of 45 mm: the contact appears a
    // speculative gap early by a different fraction of a step each time (so does the stop, and the
    // frame in which the point touches), and every rebound is still e^2 H within the tolerance of
    // check_rebound. Before the carried impact survived a stop short of the surface, the soft solver
    // lost the bounce (or most of it) for 40 heights in 198.
    const double g = (double)PU_G, h = (double)PU_H, e = 0.5;
    double tolerance = g * h * h + g * h * h / 8.0, worst = 0.0;
    int bad = 0;
    for (int i = 0; i < 60; ++i) {
        double height = 0.30 + 0.045 * i, apex = rebound_apex_from(height, e);
        double error = apex - e * e * height;
        if (fabs(error) > fabs(worst))
            worst = error;
        if (fabs(error) > tolerance && ++bad <= 5)
            print_message("from %.3f m: apex %.4f m, expected %.4f\n", height, apex, e * e * height);
    }
    print_message("60 drops: worst apex error %+.5f m (allowed +- %.5f), %d off\n", worst, tolerance, bad);
    assert_int_equal(bad, 0);
}

static void test_elastic_ball_bounces_off_a_slope_from_any_starting_gap(void **state)
{
    (void)state;
    // Zero gravity, a frictionless plane tilted 20 degrees, an e = 1 ball moving straight down at 3 m/s
    // from 20 gaps between 5 and 64 cm: its speed along the normal reverses (3 cos 20 deg) and its speed
    // along the slope (-3 sin 20 deg) is kept, within 2%, whichever fraction of a step the contact is
    // made a speculative gap early.
    const double th = 20.0 * PU_PI / 180.0, vn0 = 3.0 * cos(th), vt0 = -3.0 * sin(th);
    rb_vec3 n = v3(-(float)sin(th), (float)cos(th), 0.0f), t = v3((float)cos(th), (float)sin(th), 0.0f);
    int bad = 0;
    for (int i = 0; i < 20; ++i) {
        rb_world_id w = pu_make_world_zero_g();
        pu_add_plane(w, n, 0.0f, 0.0f, 1.0f);
        float gap = 0.05f + 0.031f * (float)i;
        rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3_scale(n, RADIUS + gap), quat_identity(), 1.0f);
        bd.linear_velocity = v3(0.0f, -3.0f, 0.0f);
        rb_shape_def sd = pu_material(0.0f, 1.0f);
        rb_body_id b = pu_add_sphere_body(w, &bd, RADIUS, &sd);
        pu_step(w, 60);
        rb_vec3 v = pu_velocity(b);
        double vn = v3_dot(v, n), vt = v3_dot(v, t);
        if ((fabs(vn - vn0) > 0.02 * vn0 || fabs(vt - vt0) > 0.02) && ++bad <= 5)
            print_message("gap %.3f m: v_n %.4f (expected %.4f), v_t %.4f (expected %.4f)\n", gap, vn, vn0, vt, vt0);
        rb_destroy_world(w);
    }
    assert_int_equal(bad, 0);
}

static void test_rebounds_are_the_same_with_sleeping_on(void **state)
{
    (void)state;
    // The 60 drops of the test above with sleeping on: a ball stopped for a frame before its carried
    // bounce must not be put to sleep, nor its bounce lost.
    const double g = (double)PU_G, h = (double)PU_H, e = 0.5;
    double tolerance = g * h * h + g * h * h / 8.0;
    int bad = 0;
    for (int i = 0; i < 60; ++i) {
        double height = 0.30 + 0.045 * i, apex = rebound_apex_sleeping(height, e, true);
        if (fabs(apex - e * e * height) > tolerance && ++bad <= 5)
            print_message("from %.3f m: apex %.4f m, expected %.4f\n", height, apex, e * e * height);
    }
    assert_int_equal(bad, 0);
}

static void test_box_landing_flat_rebounds_to_e_squared_h_without_turning(void **state)
{
    (void)state;
    // A 1 m x 0.5 m x 1 m box (e = 0.5, ground e = 0) dropped flat from 30 heights between 0.30 and
    // 2.91 m lands on its four bottom corners at once. The four points' launch speeds agree, so the
    // box leaves the ground without turning and its face climbs to e^2 H (the same tolerance as the
    // sphere's). Restitution taken point by point in one sweep let the first corner turn it: it
    // rebounded to 0.63 e^2 H, spinning at 1.5 rad/s, on every solver.
    const double g = (double)PU_G, h = (double)PU_H, e = 0.5;
    double tolerance = g * h * h + g * h * h / 8.0, worst = 0.0, worst_spin = 0.0;
    int bad = 0;
    for (int i = 0; i < 30; ++i) {
        double height = 0.30 + 0.09 * i;
        rb_world_id w = pu_make_world(false);
        pu_add_ground(w, 0.6f, 0.0f);
        rb_body_id b = pu_box(w, v3(0.0f, (float)height + 0.25f, 0.0f), quat_identity(), v3(0.5f, 0.25f, 0.5f), 1.0f,
                              0.6f, (float)e);
        bool rising = false;
        double apex = -1.0, spin = 0.0;
        for (int k = 0; k < 600; ++k) {
            pu_step(w, 1);
            float vy = pu_velocity(b).y, y = pu_position(b).y - 0.25f;
            if (vy > 0.0f) {
                rising = true;
                spin = fmax(spin, (double)v3_len(pu_angular_velocity(b)));
            }
            if (rising && y > apex)
                apex = y;
            if (rising && vy < 0.0f)
                break;
        }
        rb_destroy_world(w);
        double error = apex - e * e * height;
        if (fabs(error) > fabs(worst))
            worst = error;
        worst_spin = fmax(worst_spin, spin);
        if ((fabs(error) > tolerance || spin > 0.01) && ++bad <= 5)
            print_message("from %.3f m: apex %.4f m, expected %.4f, spin %.3g rad/s\n", height, apex, e * e * height,
                          spin);
    }
    print_message("30 flat landings: worst apex error %+.5f m (allowed +- %.5f), fastest spin %.3g rad/s, %d off\n",
                  worst, tolerance, worst_spin, bad);
    assert_int_equal(bad, 0);
}

// Zero gravity, a 1 kg ball (r 0.25 m, e = 1) strikes the plane at (3, -3, 0) m/s without spin; returns
// its velocity and spin half a second later.
static void slanted_strike(float mu, rb_vec3 *v, rb_vec3 *w)
{
    rb_world_id world = pu_make_world_zero_g();
    pu_add_ground(world, mu, 0.0f);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, 0.6f, 0.0f), quat_identity(), 1.0f);
    bd.linear_velocity = v3(3.0f, -3.0f, 0.0f);
    rb_shape_def sd = pu_material(mu, 1.0f);
    rb_body_id b = pu_add_sphere_body(world, &bd, RADIUS, &sd);
    pu_step(world, 30);
    *v = pu_velocity(b);
    *w = pu_angular_velocity(b);
    rb_destroy_world(world);
}

static void test_ball_striking_the_ground_at_a_slant_obeys_coulomb_over_the_whole_impact(void **state)
{
    (void)state;
    // Rigid impact with Coulomb friction (I = 2/5 m r^2): the normal impulse is (1 + e) m v_n = 6 N s
    // and the friction impulse at most mu times that. With mu = 0.05 the ball slides through the
    // whole impact: v_t' = 3 - 0.05 * 6 = 2.7 m/s, spin 0.3 r / I = 3 rad/s. With mu = 0.3 the
    // 1.8 N s available exceed the (2/7) m v_t = 0.857 N s that make it roll: it leaves rolling at
    // 5/7 v_t = 2.1429 m/s, spin 8.571 rad/s. Both within 0.5%, and v_n = 3 m/s (e = 1). Friction
    // limited by the compression's impulse alone left 2.85 m/s; rows placed midway across the
    // speculative gap gave the friction a lever arm of r + s/2, and the ball 2.1961 m/s.
    const struct {
        float mu;
        double vt, spin;
    } cases[] = {{0.0f, 3.0, 0.0}, {0.05f, 2.7, 3.0}, {0.3f, 3.0 * 5.0 / 7.0, 3.0 * 5.0 / 7.0 / 0.25}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        rb_vec3 v, w;
        slanted_strike(cases[i].mu, &v, &w);
        print_message("mu %.2f: v = (%.4f, %.4f) m/s (expected (%.4f, 3)), spin %.4f rad/s (expected %.4f)\n",
                      cases[i].mu, v.x, v.y, cases[i].vt, -w.z, cases[i].spin);
        assert_true(fabs(v.x - cases[i].vt) <= 0.005 * cases[i].vt);
        assert_true(fabs(v.y - 3.0) <= 0.015);
        assert_true(fabs(-w.z - cases[i].spin) <= 0.005 * cases[i].spin + 1e-4);
        assert_true(fabsf(w.x) < 1e-4f && fabsf(w.y) < 1e-4f && fabsf(v.z) < 1e-4f);
    }
}

static void test_sphere_without_restitution_stops_on_the_ground_and_stays_at_rest(void **state)
{
    (void)state;
    // e = 0: the separating speed after the impact is 0, so the sphere never rises above where the
    // impact left it; the split impulse then removes the penetration down to the slop (0.5 mm),
    // 20% per step. From 1 s after release to 4 s: centre height r within slop + 1 mm, speed below
    // 1 mm/s (resting contact: each step's g h is cancelled exactly). Sleeping is off, so this is the
    // solver holding it, not the sleep system.
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id b = pu_sphere(w, v3(0.0f, (float)DROP_HEIGHT + RADIUS, 0.0f), RADIUS, 1.0f, 0.6f, 0.0f);
    bool landed = false;
    for (int k = 0; k < 240; ++k) {
        pu_step(w, 1);
        rb_vec3 v = pu_velocity(b);
        if (pu_contact_count(w) > 0)
            landed = true;
        if (landed)
            assert_true(v.y <= 1e-3f); // never moves up after the impact
        if (k >= 60) {
            assert_true(landed);
            float y = pu_position(b).y;
            if (fabsf(y - RADIUS) > 0.0005f + 0.001f || v3_len(v) > 1e-3f)
                fail_msg("step %d: centre height %.6f m (expected %.3f ± 0.0015), speed %.3g m/s", k + 1, y,
                         RADIUS, v3_len(v));
        }
    }
    rb_destroy_world(w);
}

static void test_slow_approach_below_the_restitution_threshold_does_not_bounce(void **state)
{
    (void)state;
    // Zero gravity, e = 1 sphere moving onto the plane at 0.9 m/s, below restitution_threshold
    // (set to 1 m/s): restitution is not applied, the contact only stops the approach, so the sphere
    // ends at rest on the plane: |v| < 1 mm/s, lowest point within slop + 1 mm of the plane.
    rb_world_id w = pu_make_world_zero_g();
    RB_CHECK(rb_world_set_restitution_threshold(w, 1.0f));
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, RADIUS + 0.1f, 0.0f), quat_identity(), 1.0f);
    bd.linear_velocity = v3(0.0f, -0.9f, 0.0f);
    rb_shape_def sd = pu_material(0.6f, 1.0f);
    rb_body_id b = pu_add_sphere_body(w, &bd, RADIUS, &sd);
    pu_step(w, 60);
    rb_vec3 v = pu_velocity(b);
    assert_true(v3_len(v) < 1e-3f);
    assert_float_equal(pu_position(b).y, RADIUS, 0.0015f);
    rb_destroy_world(w);
}

// Speed (along +y) of an e = 1 sphere 0.5 s after it approached the ground at `speed` in zero gravity.
static float rebound_speed(float speed)
{
    rb_world_id w = pu_make_world_zero_g();
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, RADIUS + 0.01f, 0.0f), quat_identity(), 1.0f);
    bd.linear_velocity = v3(0.0f, -speed, 0.0f);
    rb_shape_def sd = pu_material(0.6f, 1.0f);
    rb_body_id b = pu_add_sphere_body(w, &bd, RADIUS, &sd);
    pu_step(w, 30);
    float v = pu_velocity(b).y;
    rb_destroy_world(w);
    return v;
}

static void test_the_automatic_restitution_threshold_is_the_solvers(void **state)
{
    (void)state;
    // restitution_threshold 0 (the default) is the solver's choice: 1 m/s for batched and split,
    // 1.1 |g| h for sequential (standard gravity without gravity: 1.1 · 9.81 / 180 = 6.0 cm/s). An
    // e = 1 ball approaching at 0.5 m/s bounces back at 0.5 m/s under sequential and stops under
    // batched; at 4 cm/s it stops under both.
    rb_world_def d = pu_world_def(false);
    assert_true(d.restitution_threshold == 0.0f);
    rb_world_id w = pu_make_world_zero_g();
    bool sequential = pu_solver(w) == RB_SOLVER_SEQUENTIAL;
    rb_destroy_world(w);
    float fast = rebound_speed(0.5f), slow = rebound_speed(0.04f);
    print_message("%s: approach 0.5 m/s -> %+.4f m/s, 0.04 m/s -> %+.5f m/s\n", sequential ? "sequential" : "batched",
                  fast, slow);
    if (sequential)
        assert_float_equal(fast, 0.5f, 0.01f);
    else
        assert_true(fabsf(fast) < 1e-3f);
    assert_true(fabsf(slow) < 1e-3f);
}

static void test_approach_above_the_threshold_rebounds_at_e_times_the_approach_speed(void **state)
{
    (void)state;
    // Zero gravity, e = 0.5, approach at 3 m/s (> 1 m/s): the restitution pass sets the separating
    // speed to e · 3 = 1.5 m/s. One contact against a static plane is solved exactly by one
    // projected step, so only float rounding remains: 1e-5 relative.
    rb_world_id w = pu_make_world_zero_g();
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, RADIUS + 0.5f, 0.0f), quat_identity(), 1.0f);
    bd.linear_velocity = v3(0.0f, -3.0f, 0.0f);
    rb_shape_def sd = pu_material(0.6f, 0.5f);
    rb_body_id b = pu_add_sphere_body(w, &bd, RADIUS, &sd);
    pu_step(w, 30);
    rb_vec3 v = pu_velocity(b);
    assert_true(pu_rel_err(v.y, 1.5) < 1e-5);
    assert_float_equal(v.x, 0.0f, 1e-6);
    assert_float_equal(v.z, 0.0f, 1e-6);
    rb_destroy_world(w);
}

static void test_perfectly_elastic_sphere_keeps_bouncing_without_gaining_energy(void **state)
{
    (void)state;
    // e = 1: the bounce conserves Q up to O(h^2) (see the top of the file), and a speculative contact
    // stops the sphere at the surface, so no split-impulse push adds height. Each apex may exceed the
    // previous one by at most the O(h^2) residual g h^2 plus the sampling g h^2 / 8. Over 10 bounces
    // (~13 s) the sphere must keep bouncing (every apex >= 90% of H: nothing but rounding takes
    // energy out) and must not climb in total by more than 1% of H.
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id b = pu_sphere(w, v3(0.0f, (float)DROP_HEIGHT + RADIUS, 0.0f), RADIUS, 1.0f, 0.6f, 1.0f);
    double tol = (double)PU_G * PU_H * PU_H * (1.0 + 1.0 / 8.0);
    double apexes[12];
    int count = 0;
    double prev_y = DROP_HEIGHT, prev_prev_y = DROP_HEIGHT;
    for (int k = 0; k < 1200 && count < 10; ++k) {
        pu_step(w, 1);
        double y = pu_position(b).y - RADIUS;
        // a sample higher than both neighbours is an apex (the one at release is not counted)
        if (k >= 2 && prev_y > prev_prev_y && prev_y >= y)
            apexes[count++] = prev_y;
        prev_prev_y = prev_y;
        prev_y = y;
    }
    char line[512];
    int len = 0;
    for (int i = 0; i < count; ++i)
        len += snprintf(line + len, sizeof line - (size_t)len, " %.4f", apexes[i]);
    print_message("e = 1 apexes (m):%s; allowed rise per bounce %.4f m\n", line, tol);
    assert_int_equal(count, 10);
    double prev = DROP_HEIGHT;
    for (int i = 0; i < count; ++i) {
        if (apexes[i] > prev + tol)
            fail_msg("bounce %d: apex %.5f m > previous %.5f m + %.4f m", i + 1, apexes[i], prev, tol);
        assert_true(apexes[i] >= 0.9 * DROP_HEIGHT);
        prev = apexes[i];
    }
    assert_true(apexes[count - 1] <= DROP_HEIGHT * 1.01);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_with_restitution_one_quarter_rebounds_to_a_sixteenth_of_its_drop_height),
        cmocka_unit_test(test_sphere_with_restitution_one_half_rebounds_to_a_quarter_of_its_drop_height),
        cmocka_unit_test(test_sphere_with_restitution_0_8_rebounds_to_0_64_of_its_drop_height),
        cmocka_unit_test(test_the_rebound_does_not_depend_on_where_in_a_step_the_sphere_lands),
        cmocka_unit_test(test_elastic_ball_bounces_off_a_slope_from_any_starting_gap),
        cmocka_unit_test(test_rebounds_are_the_same_with_sleeping_on),
        cmocka_unit_test(test_box_landing_flat_rebounds_to_e_squared_h_without_turning),
        cmocka_unit_test(test_ball_striking_the_ground_at_a_slant_obeys_coulomb_over_the_whole_impact),
        cmocka_unit_test(test_sphere_without_restitution_stops_on_the_ground_and_stays_at_rest),
        cmocka_unit_test(test_slow_approach_below_the_restitution_threshold_does_not_bounce),
        cmocka_unit_test(test_the_automatic_restitution_threshold_is_the_solvers),
        cmocka_unit_test(test_approach_above_the_threshold_rebounds_at_e_times_the_approach_speed),
        cmocka_unit_test(test_perfectly_elastic_sphere_keeps_bouncing_without_gaining_energy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
