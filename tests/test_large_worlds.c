// Large worlds (docs/large-worlds.md): what 32-bit positions do to motion far from the origin, the
// counter that reports it (rb_counters.imprecise_bodies), and rb_world_shift_origin, which brings the
// action back to where floats are fine and keeps contacts, warm starts and sleep. The solver is the
// backend's default, or the one RUBBLE_TEST_SOLVER names; the backend the one RUBBLE_TEST_BACKEND names.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "physics_util.h"

// ---- helpers ------------------------------------------------------------------------------------

static int imprecise(rb_world_id w)
{
    rb_counters c;
    RB_CHECK(rb_world_get_counters(w, &c));
    return c.imprecise_bodies;
}

static float substep_of(rb_world_id w)
{
    float dt;
    int n;
    RB_CHECK(rb_world_get_time_step(w, &dt, &n));
    return dt / (float)n;
}

// The spacing of floats at magnitude x: 2^(e - 23) for 2^e <= x < 2^(e+1).
static double ulp_at(double x)
{
    int e;
    (void)frexp(x, &e);
    return ldexp(1.0, e - 24);
}

// A static ground box (top face at y = 0) and a frictionless unit cube on it at x = `x`, sliding along
// +x at `speed`. Sleep is off.
static rb_body_id sliding_box(rb_world_id w, float x, float speed)
{
    rb_shape_def ice = pu_material(0.0f, 0.0f);
    rb_body_def gd = pu_body_def(RB_BODY_STATIC, v3(x, -0.5f, 0.0f), quat_identity(), 0.0f);
    pu_add_box_body(w, &gd, v3(50.0f, 0.5f, 50.0f), &ice);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(x, 0.5f, 0.0f), quat_identity(), 1.0f);
    bd.linear_velocity = v3(speed, 0.0f, 0.0f);
    return pu_add_box_body(w, &bd, v3(0.5f, 0.5f, 0.5f), &ice);
}

// The distance the box of sliding_box travels in `steps` steps at x, measured in double.
static double slide(float x, int steps, int *counted)
{
    rb_world_id w = pu_make_world(false);
    rb_body_id box = sliding_box(w, x, 0.5f);
    rb_vec3 p0 = pu_position(box);
    pu_step(w, steps);
    rb_vec3 p1 = pu_position(box);
    *counted = imprecise(w);
    assert_float_equal(pu_velocity(box).x, 0.5f, 1e-5f); // the velocity reads right whatever happened
    rb_destroy_world(w);
    return (double)p1.x - (double)p0.x;
}

// ---- the measurement of issue 18 and the counter ------------------------------------------------

static void test_box_sliding_far_from_the_origin_moves_whole_ulps_per_substep_and_is_counted(void **state)
{
    (void)state;
    // 0.5 m/s for 2 s is 1 m. Each substep's x + v h is rounded to the nearest multiple of ulp(x), so
    // far out the box moves round(v h / ulp) ulps per substep: on the soft solver (h = 1/240 s, 2.08 mm)
    // at 1e4 m (ulp 2^-10 m: 2.13 ulps, rounded to 2) that is 0.9375 m; on the batched one (h = 1/60 s,
    // 8.5 ulps, rounded to 9) 1.0547 m, the 1.055; at 1e6 m (ulp 1/16 m) nothing at all. At
    // 100 m (ulp 7.6e-6 m, 273 ulps per substep) the box is 0.2 mm short, and not counted.
    rb_world_id probe = pu_make_world(false);
    float h = substep_of(probe);
    float dt;
    RB_CHECK(rb_world_get_time_step(probe, &dt, NULL));
    rb_destroy_world(probe);
    const int steps = 120, substeps = (int)lroundf(dt / h) * steps;
    const double d = 0.5 * (double)h;
    int counted;

    double at_origin = slide(0.0f, steps, &counted);
    print_message("0.5 m/s for 2 s, substep %.5f s: %.4f m at the origin\n", (double)h, at_origin);
    assert_true(fabs(at_origin - 1.0) < 1e-4);
    assert_int_equal(counted, 0);

    double at_100 = slide(100.0f, steps, &counted);
    print_message("  %.4f m at 100 m (%d counted)\n", at_100, counted);
    assert_true(fabs(at_100 - 1.0) < 1e-3);
    assert_int_equal(counted, 0);

    const float far[] = {1e4f, 1e6f};
    for (int i = 0; i < 2; ++i) {
        double u = ulp_at(far[i]);
        double expected = nearbyint(d / u) * u * substeps;
        double moved = slide(far[i], steps, &counted);
        print_message("  %.4f m at %g m (%.2f ulps per substep; %.4f m expected), %d counted\n", moved,
                      (double)far[i], d / u, expected, counted);
        assert_true(fabs(moved - expected) < 1e-6);
        assert_true(fabs(moved - 1.0) > 0.05); // 5.5 % or more off
        assert_int_equal(counted, 1);
    }
}

static void test_only_awake_moving_bodies_that_floats_cannot_follow_are_counted(void **state)
{
    (void)state;
    // Far out (1e4 m), without gravity: a static box, a dynamic box slower than the sleep tolerance
    // (0.04 m/s < 0.05 m/s: at rest to the solver), one at rest and one asleep are not counted; a
    // kinematic platform and a dynamic box at 0.5 m/s are (2.1 ulps per substep). Near the origin the
    // same 0.5 m/s box is not.
    rb_world_def def = pu_world_def(true);
    def.gravity = v3(0.0f, 0.0f, 0.0f);
    rb_world_id w = pu_make_world_from(&def);
    rb_shape_def sd = pu_material(0.5f, 0.0f);
    rb_body_def bd = pu_body_def(RB_BODY_STATIC, v3(1e4f, 0.0f, 0.0f), quat_identity(), 0.0f);
    pu_add_box_body(w, &bd, v3(1.0f, 1.0f, 1.0f), &sd);
    bd = pu_body_def(RB_BODY_DYNAMIC, v3(1e4f, 10.0f, 0.0f), quat_identity(), 1.0f);
    bd.linear_velocity = v3(0.04f, 0.0f, 0.0f);
    pu_add_box_body(w, &bd, v3(0.5f, 0.5f, 0.5f), &sd);
    bd = pu_body_def(RB_BODY_DYNAMIC, v3(1e4f, 20.0f, 0.0f), quat_identity(), 1.0f);
    pu_add_box_body(w, &bd, v3(0.5f, 0.5f, 0.5f), &sd);
    bd = pu_body_def(RB_BODY_DYNAMIC, v3(1e4f, 30.0f, 0.0f), quat_identity(), 1.0f);
    bd.is_awake = false;
    pu_add_box_body(w, &bd, v3(0.5f, 0.5f, 0.5f), &sd);
    assert_int_equal(imprecise(w), 0);

    bd = pu_body_def(RB_BODY_KINEMATIC, v3(1e4f, 40.0f, 0.0f), quat_identity(), 0.0f);
    bd.linear_velocity = v3(0.5f, 0.0f, 0.0f);
    pu_add_box_body(w, &bd, v3(2.0f, 0.2f, 2.0f), &sd);
    assert_int_equal(imprecise(w), 1);
    bd = pu_body_def(RB_BODY_DYNAMIC, v3(1e4f, 50.0f, 0.0f), quat_identity(), 1.0f);
    bd.linear_velocity = v3(0.0f, 0.0f, -0.5f);
    pu_add_box_body(w, &bd, v3(0.5f, 0.5f, 0.5f), &sd);
    pu_step(w, 10);
    assert_int_equal(imprecise(w), 2);
    bd = pu_body_def(RB_BODY_DYNAMIC, v3(1.0f, 50.0f, 0.0f), quat_identity(), 1.0f);
    bd.linear_velocity = v3(0.0f, 0.0f, -0.5f);
    pu_add_box_body(w, &bd, v3(0.5f, 0.5f, 0.5f), &sd);
    pu_step(w, 1);
    assert_int_equal(imprecise(w), 2);
    rb_destroy_world(w);
}

// A pile of 27 unit cubes, 3 x 3 x 3, 2 cm apart on each axis with a 1 cm stagger per layer, on a
// static ground box 40 m wide, around `at`.
static void build_pile(rb_world_id w, rb_vec3 at, rb_body_id *cubes)
{
    rb_shape_def sd = pu_material(0.6f, 0.0f);
    rb_body_def gd = pu_body_def(RB_BODY_STATIC, v3_add(at, v3(0.0f, -0.5f, 0.0f)), quat_identity(), 0.0f);
    pu_add_box_body(w, &gd, v3(20.0f, 0.5f, 20.0f), &sd);
    int n = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k) {
                rb_vec3 p = v3_add(at, v3(1.02f * (float)i + 0.01f * (float)j, 0.5f + (float)j, 1.02f * (float)k));
                rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, p, quat_identity(), 1.0f);
                cubes[n++] = pu_add_box_body(w, &bd, v3(0.5f, 0.5f, 0.5f), &sd);
            }
}

static void test_settling_pile_near_the_origin_is_never_counted(void **state)
{
    (void)state;
    // The pile of build_pile falls into place and goes to sleep: its bodies, within 4 m of the origin,
    // move 273 ulps or more per substep whenever they are faster than the sleep tolerance.
    rb_world_id w = pu_make_world(true);
    rb_body_id cubes[27];
    build_pile(w, v3(-1.0f, 0.05f, -1.0f), cubes);
    int worst = 0;
    for (int i = 0; i < 300; ++i) {
        pu_step(w, 1);
        int n = imprecise(w);
        worst = n > worst ? n : worst;
    }
    assert_int_equal(worst, 0);
    rb_destroy_world(w);
}

// ---- rb_world_shift_origin ------------------------------------------------------------------------

static void test_shifting_the_origin_to_the_box_restores_its_motion(void **state)
{
    (void)state;
    // The sliding box of the first test at 1e4 m: counted, and short. Once the origin is moved to it
    // (exactly: x - 1e4 needs no rounding for x within a factor 2 of 1e4, Sterbenz), it moves 1 m in
    // the next 2 s as at the origin, and is no longer counted. The ground moved with it.
    rb_world_id w = pu_make_world(false);
    rb_body_id box = sliding_box(w, 1e4f, 0.5f);
    pu_step(w, 30);
    assert_int_equal(imprecise(w), 1);
    rb_vec3 before = pu_position(box);
    RB_CHECK(rb_world_shift_origin(w, v3(1e4f, 0.0f, 0.0f)));
    rb_vec3 after = pu_position(box);
    assert_true(after.x == before.x - 1e4f && after.y == before.y && after.z == before.z);
    assert_int_equal(imprecise(w), 0);
    assert_float_equal(pu_velocity(box).x, 0.5f, 1e-6f);
    rb_body_id ground;
    RB_CHECK(rb_world_get_body_id(w, 0, &ground));
    rb_vec3 g = pu_position(ground);
    assert_true(g.x == 0.0f && g.y == -0.5f && g.z == 0.0f);

    int worst = 0;
    for (int i = 0; i < 120; ++i) {
        pu_step(w, 1);
        int n = imprecise(w);
        worst = n > worst ? n : worst;
    }
    double moved = (double)pu_position(box).x - (double)after.x;
    print_message("after the shift: %.5f m in 2 s (1 m expected)\n", moved);
    assert_true(fabs(moved - 1.0) < 1e-3);
    assert_float_equal(pu_position(box).y, 0.5f, 1e-3f); // still on the ground
    assert_int_equal(worst, 0);
    rb_destroy_world(w);
}

static void test_shift_keeps_contacts_in_place_with_their_impulses(void **state)
{
    (void)state;
    // A pile in motion (0.4 s after its release, before it rests): right after the shift every contact
    // of the last step is still reported, at its point minus the offset (the same float subtraction),
    // with the same normal and impulses, bit for bit.
    rb_world_id w = pu_make_world(false);
    rb_body_id cubes[27];
    build_pile(w, v3(-1.0f, 0.05f, -1.0f), cubes);
    pu_step(w, 24);
    int n0;
    rb_contact *c0 = pu_contacts(w, &n0);
    assert_true(n0 > 50);
    const rb_vec3 d = v3(1e4f, 0.0f, -3e3f);
    RB_CHECK(rb_world_shift_origin(w, d));
    int n1;
    rb_contact *c1 = pu_contacts(w, &n1);
    assert_int_equal(n1, n0);
    for (int i = 0; i < n0; ++i) {
        assert_true(rb_shape_equal(c1[i].shape_a, c0[i].shape_a) && rb_shape_equal(c1[i].shape_b, c0[i].shape_b));
        rb_vec3 moved = v3_sub(c0[i].point, d);
        assert_memory_equal(&c1[i].point, &moved, sizeof moved);
        assert_memory_equal(&c1[i].normal, &c0[i].normal, sizeof c0[i].normal);
        assert_true(c1[i].normal_impulse == c0[i].normal_impulse);
        assert_memory_equal(&c1[i].friction_impulse, &c0[i].friction_impulse, sizeof c0[i].friction_impulse);
    }
    free(c0);
    free(c1);
    rb_destroy_world(w);
}

// Largest distance between the positions of the same bodies of two worlds, b's shifted by `offset`
// (b = a - offset), and largest angle between their rotations.
static void compare_worlds(rb_world_id a, rb_world_id b, rb_vec3 offset, double *dist, double *angle)
{
    int n = pu_body_slots(a);
    assert_int_equal(pu_body_slots(b), n);
    *dist = *angle = 0.0;
    for (int i = 0; i < n; ++i) {
        rb_body_id ba, bb;
        RB_CHECK(rb_world_get_body_id(a, i, &ba));
        RB_CHECK(rb_world_get_body_id(b, i, &bb));
        rb_vec3 pa = pu_position(ba), pb = pu_position(bb);
        double dx = (double)pa.x - offset.x - pb.x, dy = (double)pa.y - offset.y - pb.y,
               dz = (double)pa.z - offset.z - pb.z;
        double dd = sqrt(dx * dx + dy * dy + dz * dz), aa = quat_angle_between(pu_rotation(ba), pu_rotation(bb));
        *dist = dd > *dist ? dd : *dist;
        *angle = aa > *angle ? aa : *angle;
    }
}

static double impulse_sum(rb_world_id w)
{
    int n;
    rb_contact *c = pu_contacts(w, &n);
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        s += c[i].normal_impulse;
    free(c);
    return s;
}

// A scene with a bit of everything that moves, near the origin: the pile of build_pile falling, a
// kinematic conveyor carrying a box, a ball rolling across the ground.
static void busy_scene(rb_world_id w)
{
    rb_body_id cubes[27];
    build_pile(w, v3(-1.0f, 0.05f, -1.0f), cubes);
    rb_shape_def sd = pu_material(0.6f, 0.0f);
    rb_body_def bd = pu_body_def(RB_BODY_KINEMATIC, v3(-6.0f, 0.1f, 4.0f), quat_identity(), 0.0f);
    bd.linear_velocity = v3(0.3f, 0.0f, 0.0f);
    pu_add_box_body(w, &bd, v3(1.0f, 0.1f, 1.0f), &sd);
    bd = pu_body_def(RB_BODY_DYNAMIC, v3(-6.0f, 0.45f, 4.0f), quat_identity(), 1.0f);
    pu_add_box_body(w, &bd, v3(0.25f, 0.25f, 0.25f), &sd);
    bd = pu_body_def(RB_BODY_DYNAMIC, v3(-4.0f, 0.3f, -5.0f), quat_identity(), 1.0f);
    bd.linear_velocity = v3(1.0f, 0.0f, 0.5f);
    pu_add_sphere_body(w, &bd, 0.3f, &sd);
}

static void test_shift_there_and_back_keeps_the_trajectory_of_the_unshifted_run(void **state)
{
    (void)state;
    // Two copies of busy_scene step side by side; one moves its origin to (8, 0, -4) after 0.5 s and
    // back after another second. The shift itself rounds each coordinate once (half an ulp, under 1 um
    // out to 16 m), and warm starts, contacts and sleep carry on: the same contact counts at every step,
    // the same total impulse within 1e-3 (relative) at the end. But while the origins differ, each
    // substep rounds every coordinate of each copy to its own float grid, half an ulp each way at most,
    // and the same way again while a velocity holds (what this file is about, at 16 m instead of 1e4):
    // the copies drift apart by up to one ulp at 16 m (1.9e-6 m) per substep and coordinate, 4.6e-4 m
    // in the 240 substeps of 1 s. Measured on the soft solver: 1.7e-4 m (the ball rolling at 1.1 m/s),
    // and no more after the shift back.
    rb_world_def def = pu_world_def(true);
    rb_world_id a = pu_make_world_from(&def), b = pu_make_world_from(&def);
    busy_scene(a);
    busy_scene(b);
    pu_step(a, 30);
    pu_step(b, 30);
    const rb_vec3 d = v3(8.0f, 0.0f, -4.0f), zero = v3(0.0f, 0.0f, 0.0f);
    RB_CHECK(rb_world_shift_origin(b, d));
    double dist, angle;
    compare_worlds(a, b, d, &dist, &angle);
    assert_true(dist < 1e-6 && angle == 0.0);
    int mismatched = 0;
    for (int i = 0; i < 60; ++i) {
        pu_step(a, 1);
        pu_step(b, 1);
        mismatched += pu_contact_count(a) != pu_contact_count(b);
    }
    compare_worlds(a, b, d, &dist, &angle);
    double bound = 60.0 * pu_substeps(a) * ulp_at(16.0);
    print_message("1 s after the shift: %.2e m (bound %.2e m), %.2e rad apart\n", dist, bound, angle);
    assert_true(dist < bound && angle < 1e-3);
    RB_CHECK(rb_world_shift_origin(b, v3_scale(d, -1.0f)));
    for (int i = 0; i < 30; ++i) {
        pu_step(a, 1);
        pu_step(b, 1);
        mismatched += pu_contact_count(a) != pu_contact_count(b);
    }
    compare_worlds(a, b, zero, &dist, &angle);
    double ia = impulse_sum(a), ib = impulse_sum(b);
    print_message("back again, 0.5 s later: %.2e m, %.2e rad apart; impulses %.6f and %.6f N s\n", dist, angle, ia,
                  ib);
    assert_int_equal(mismatched, 0);
    assert_true(dist < bound && angle < 1e-3);
    assert_true(pu_rel_err(ib, ia) < 1e-3);
    rb_destroy_world(a);
    rb_destroy_world(b);
}

// Steps until every cube of the pile sleeps; fails after `max` steps.
static void settle(rb_world_id w, const rb_body_id *cubes, int n, int max)
{
    for (int i = 0; i < max; ++i) {
        pu_step(w, 1);
        bool any = false;
        for (int k = 0; k < n && !any; ++k)
            any = pu_awake(cubes[k]);
        if (!any)
            return;
    }
    fail_msg("the pile was still awake after %d steps", max);
}

// The pile of build_pile around `at`, settled and asleep, then the origin moved to `to`: it stays
// asleep without moving by a bit for 2 s, its contacts are the same as those of an unshifted twin at
// every step, and when it is woken it holds (no cube sinks 1 cm) and goes back to sleep.
static void check_sleeping_pile_shift(rb_vec3 at, rb_vec3 to)
{
    rb_world_def def = pu_world_def(true);
    rb_world_id w = pu_make_world_from(&def), twin = pu_make_world_from(&def);
    rb_body_id cubes[27], twins[27];
    build_pile(w, at, cubes);
    build_pile(twin, at, twins);
    settle(w, cubes, 27, 600);
    settle(twin, twins, 27, 600);
    int n0;
    rb_contact *c0 = pu_contacts(w, &n0);
    rb_vec3 asleep[27];
    for (int k = 0; k < 27; ++k)
        asleep[k] = v3_sub(pu_position(cubes[k]), to);

    RB_CHECK(rb_world_shift_origin(w, to));
    int n1;
    rb_contact *c1 = pu_contacts(w, &n1);
    assert_int_equal(n1, n0);
    for (int i = 0; i < n0; ++i)
        assert_true(c1[i].normal_impulse == c0[i].normal_impulse);
    for (int k = 0; k < 27; ++k) {
        assert_false(pu_awake(cubes[k]));
        rb_vec3 p = pu_position(cubes[k]);
        assert_memory_equal(&p, &asleep[k], sizeof p);
    }
    int mismatched = 0;
    for (int i = 0; i < 120; ++i) {
        pu_step(w, 1);
        pu_step(twin, 1);
        mismatched += pu_contact_count(w) != pu_contact_count(twin);
    }
    assert_int_equal(mismatched, 0);
    for (int k = 0; k < 27; ++k) {
        assert_false(pu_awake(cubes[k]));
        rb_vec3 p = pu_position(cubes[k]);
        assert_memory_equal(&p, &asleep[k], sizeof p);
    }

    // woken by hand (the top corner cube): the island wakes, and the contacts carry the pile
    RB_CHECK(rb_body_set_awake(cubes[26], true));
    double sink = 0.0;
    for (int i = 0; i < 60; ++i) {
        pu_step(w, 1);
        for (int k = 0; k < 27; ++k) {
            double s = (double)asleep[k].y - pu_position(cubes[k]).y;
            sink = s > sink ? s : sink;
        }
    }
    print_message("pile at (%g, %g, %g) shifted to (%g, %g, %g): %d contacts kept; woken, deepest sink %.5f m\n",
                  (double)at.x, (double)at.y, (double)at.z, (double)to.x, (double)to.y, (double)to.z, n0, sink);
    assert_true(sink < 0.01);
    settle(w, cubes, 27, 600);
    free(c0);
    free(c1);
    rb_destroy_world(w);
    rb_destroy_world(twin);
}

static void test_sleeping_pile_far_away_shifted_near_stays_asleep_with_its_contacts(void **state)
{
    (void)state;
    check_sleeping_pile_shift(v3(1e4f, 0.0f, -3e3f), v3(1e4f, 0.0f, -3e3f));
}

static void test_sleeping_pile_near_shifted_far_away_stays_asleep_with_its_contacts(void **state)
{
    (void)state;
    // the other way: the pile ends up 1e4 m out, where it rests as well as it can (a sleeping body
    // does not move, so nothing is rounded until it wakes)
    check_sleeping_pile_shift(v3(-1.0f, 0.0f, -1.0f), v3(1e4f, 0.0f, -3e3f));
}

static void test_non_finite_origin_is_refused_and_changes_nothing(void **state)
{
    (void)state;
    // NaN or an infinity in any coordinate: RB_ERR_INVALID_ARGUMENT naming the argument and the values;
    // the bodies and contacts are bit for bit as before. A destroyed world: RB_ERR_STALE_ID.
    rb_world_id w = pu_make_world(true);
    rb_body_id cubes[27];
    build_pile(w, v3(-1.0f, 0.05f, -1.0f), cubes);
    pu_step(w, 20);
    rb_vec3 before[27];
    for (int k = 0; k < 27; ++k)
        before[k] = pu_position(cubes[k]);
    int n0;
    rb_contact *c0 = pu_contacts(w, &n0);
    const rb_vec3 bad[] = {v3(NAN, 0.0f, 0.0f), v3(0.0f, INFINITY, 0.0f), v3(1.0f, 2.0f, -INFINITY)};
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(rb_world_shift_origin(w, bad[i]), RB_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(rb_last_error(w), "new_origin must be finite"));
    }
    for (int k = 0; k < 27; ++k) {
        rb_vec3 p = pu_position(cubes[k]);
        assert_memory_equal(&p, &before[k], sizeof p);
    }
    int n1;
    rb_contact *c1 = pu_contacts(w, &n1);
    assert_int_equal(n1, n0);
    assert_memory_equal(c1, c0, sizeof *c0 * (size_t)n0);
    free(c0);
    free(c1);
    RB_CHECK(rb_destroy_world(w));
    assert_int_equal(rb_world_shift_origin(w, v3(1.0f, 0.0f, 0.0f)), RB_ERR_STALE_ID);
}

// A shift that would carry a body beyond the simulated coordinates (1e18 m on an axis, docs/limits.md)
// is refused before anything moves, with the body named: a body at z = 9e17 m and an origin at
// z = -9e17 m. Found by fuzz_api (regressions/api/shift-origin-carries-body-past-float-range.bin): a
// body at 3.4e38 m, shifted by as much again, became infinite.
static void test_shift_beyond_the_coordinate_limit_is_refused_and_changes_nothing(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world_zero_g();
    rb_body_id near = pu_sphere(w, v3(0.0f, 1.0f, 0.0f), 0.5f, 1.0f, 0.5f, 0.0f);
    rb_body_id far = pu_sphere(w, v3(0.0f, -1.0f, 9e17f), 0.5f, 1.0f, 0.5f, 0.0f);
    rb_vec3 near0 = pu_position(near), far0 = pu_position(far);
    assert_int_equal(rb_world_shift_origin(w, v3(0.0f, 1.0f, -9e17f)), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "body slot 1"));
    assert_non_null(strstr(rb_last_error(w), "nothing was moved"));
    rb_vec3 near1 = pu_position(near), far1 = pu_position(far);
    assert_memory_equal(&near1, &near0, sizeof near0);
    assert_memory_equal(&far1, &far0, sizeof far0);
    // towards the far body is fine: it comes near, the near one goes far
    RB_CHECK(rb_world_shift_origin(w, v3(0.0f, 0.0f, 9e17f)));
    assert_float_equal(pu_position(far).z, 0.0f, 0.0f);
    assert_float_equal(pu_position(near).z, -9e17f, 0.0f);
    // and placing a body beyond the limit is refused at once
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, 0.0f, 2e18f), quat_identity(), 0.0f);
    rb_body_id id;
    assert_int_equal(rb_create_body(w, &bd, &id), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "within 1e+18 m"));
    assert_int_equal(rb_body_set_transform(near, v3(-3e38f, 0.0f, 0.0f), quat_identity()), RB_ERR_INVALID_ARGUMENT);
    // a plane whose distance from the origin, once its normal is made unit, is beyond the limit: a normal
    // of length 0.1 with an offset of 3e38 put it at infinity (found by fuzz_api,
    // regressions/api/plane-offset-overflows-when-normal-is-normalised.bin); 1e17 is 1e18 m away: fine
    rb_body_def gd = pu_body_def(RB_BODY_STATIC, v3(0.0f, 0.0f, 0.0f), quat_identity(), 0.0f);
    rb_body_id ground;
    RB_CHECK(rb_create_body(w, &gd, &ground));
    rb_shape_def sd = pu_material(0.5f, 0.0f);
    rb_shape_id plane;
    rb_plane far_plane = {{0.1f, 0.0f, 0.0f}, 3e38f};
    assert_int_equal(rb_create_plane_shape(ground, &sd, &far_plane, &plane), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "plane offset"));
    rb_plane edge_plane = {{0.1f, 0.0f, 0.0f}, 1e17f};
    RB_CHECK(rb_create_plane_shape(ground, &sd, &edge_plane, &plane));
    rb_plane got;
    RB_CHECK(rb_shape_get_plane(plane, &got));
    assert_float_equal(got.normal.x, 1.0f, 0.0f);
    assert_float_equal(got.offset, 1e18f, 1e12f);
    RB_CHECK(rb_destroy_world(w));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_sliding_far_from_the_origin_moves_whole_ulps_per_substep_and_is_counted),
        cmocka_unit_test(test_only_awake_moving_bodies_that_floats_cannot_follow_are_counted),
        cmocka_unit_test(test_settling_pile_near_the_origin_is_never_counted),
        cmocka_unit_test(test_shifting_the_origin_to_the_box_restores_its_motion),
        cmocka_unit_test(test_shift_keeps_contacts_in_place_with_their_impulses),
        cmocka_unit_test(test_shift_there_and_back_keeps_the_trajectory_of_the_unshifted_run),
        cmocka_unit_test(test_sleeping_pile_far_away_shifted_near_stays_asleep_with_its_contacts),
        cmocka_unit_test(test_sleeping_pile_near_shifted_far_away_stays_asleep_with_its_contacts),
        cmocka_unit_test(test_non_finite_origin_is_refused_and_changes_nothing),
        cmocka_unit_test(test_shift_beyond_the_coordinate_limit_is_refused_and_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
