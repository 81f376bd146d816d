// Rest and motion: physics every solver must get right, whatever it trades for speed. Bodies on a
// slope slide, roll or stay put exactly as Coulomb friction says (static and kinetic), sleeping never
// freezes a body that gravity is still accelerating, towers of very unequal masses and stacks of thin
// plates stand without sinking or tilting, and Newton's cradle hands the momentum on ball by ball.
// Each test compares a measured figure with its analytic value (SI units, y up, g = 9.81 m/s²,
// dt = 1/60 s, the world's default substeps and iterations) and prints both.
//
// The slopes are tilted static planes under the default gravity (0, −9.81, 0): the half-space
// below the plane through the origin with normal n = (−sin θ, cos θ, 0), so the surface rises along
// +x and "down the slope" is d = (−cos θ, −sin θ, 0); g·d = g sin θ and g·n = −g cos θ. (Tilting
// gravity by θ over a flat ground is the same problem rotated by θ about z — the physics is
// rotation-invariant — but a tilted plane is what an application builds, and it exercises the
// plane's contact frame off the axes.)
//
// Materials: a pair's friction is sqrt(μa μb), its static friction likewise, and its restitution
// max(ea, eb) (rb_shape_def in rubble.h, rb_mix_friction / rb_mix_restitution), so both shapes of a
// pair get the same values and the pair has exactly those.
//
// The solver is the CPU default, or the one RUBBLE_TEST_SOLVER names (physics_util.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "physics_util.h"

static const double DEG = PU_PI / 180.0;

// What a solver does not do yet, by behaviour: the test is skipped (visibly, with the reason) for that
// solver and runs, and must pass, for every other. The default solver has no entry.
//   batched, split: touching balls share an impact (no largest-closing-first pass), so no cradle;
//   docs/solver.md "What each solver does at rest".
static int skipped_for_this_solver(const char *behaviour)
{
    static const struct {
        const char *solver, *behaviour;
    } gaps[] = {
        {"batched", "cradle"},
        {"split", "cradle"},
        {"batched", "cradle_gaps"},
        {"split", "cradle_gaps"},
    };
    rb_world_id w = pu_make_world(false);
    rb_world_info info;
    RB_CHECK(rb_world_get_info(w, &info));
    int gap = 0;
    for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; ++i)
        gap |= strcmp(info.solver, gaps[i].solver) == 0 && strcmp(behaviour, gaps[i].behaviour) == 0;
    if (gap)
        print_message("skipped: the %s solver does not do '%s' yet (docs/solver.md)\n", info.solver, behaviour);
    rb_destroy_world(w);
    return gap;
}

// ---- slopes -----------------------------------------------------------------------------------

typedef struct slope {
    rb_world_id w;
    rb_body_id body;
    rb_vec3 n;    // unit normal of the slope's surface, (−sin θ, cos θ, 0)
    rb_vec3 down; // unit vector down the slope, (−cos θ, −sin θ, 0)
    rb_vec3 c0;   // the body's centre of mass as placed
} slope;

typedef struct material {
    float mu_k; // kinetic friction
    float mu_s; // static friction (0: equal to mu_k)
} material;

// The tilted plane, with `m` on it.
static slope make_slope(double theta, material m, bool sleep)
{
    slope s;
    s.w = pu_make_world(sleep);
    float st = (float)sin(theta), ct = (float)cos(theta);
    s.n = v3(-st, ct, 0.0f);
    s.down = v3(-ct, -st, 0.0f);
    rb_body_def bd = pu_body_def(RB_BODY_STATIC, v3(0.0f, 0.0f, 0.0f), quat_identity(), 0.0f);
    rb_body_id ground;
    RB_CHECK(rb_create_body(s.w, &bd, &ground));
    rb_shape_def sd = pu_material(m.mu_k, 0.0f);
    sd.static_friction = m.mu_s;
    rb_plane p = {s.n, 0.0f};
    rb_shape_id sh;
    RB_CHECK(rb_create_plane_shape(ground, &sd, &p, &sh));
    s.body = rb_null_body_id;
    return s;
}

// A 1 kg box 1 m × 0.5 m × 1 m (half extents 0.5, 0.25, 0.5) turned by θ about z so that its
// 1 m × 1 m face lies on the slope, touching it (centre 0.25 m along n), with speed v0 down the
// slope. It cannot tip: tipping needs tan θ > 0.5 / 0.25 = 2.
static void add_box(slope *s, double theta, material m, float v0)
{
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3_scale(s->n, 0.25f),
                                 rb_quat_from_axis_angle(v3(0.0f, 0.0f, 1.0f), (float)theta), 1.0f);
    bd.linear_velocity = v3_scale(s->down, v0);
    rb_shape_def sd = pu_material(m.mu_k, 0.0f);
    sd.static_friction = m.mu_s;
    s->body = pu_add_box_body(s->w, &bd, v3(0.5f, 0.25f, 0.5f), &sd);
    s->c0 = pu_center(s->body);
}

// A 1 kg solid sphere of radius 0.25 m touching the slope (centre 0.25 m along n), at rest.
static void add_ball(slope *s, material m)
{
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3_scale(s->n, 0.25f), quat_identity(), 1.0f);
    rb_shape_def sd = pu_material(m.mu_k, 0.0f);
    sd.static_friction = m.mu_s;
    s->body = pu_add_sphere_body(s->w, &bd, 0.25f, &sd);
    s->c0 = pu_center(s->body);
}

// How far the centre of mass has moved down the slope since it was placed.
static double slid(const slope *s) { return v3_dot(v3_sub(pu_center(s->body), s->c0), s->down); }

// How far it has moved along the slope's surface in any direction (the part of the displacement
// normal to the surface, which settling into the contact may take, is left out).
static double moved_along_surface(const slope *s)
{
    rb_vec3 d = v3_sub(pu_center(s->body), s->c0);
    return v3_len(v3_sub(d, v3_scale(s->n, v3_dot(d, s->n))));
}

static double speed_down(const slope *s) { return v3_dot(pu_velocity(s->body), s->down); }

// The acceleration that the distance `d` slid from rest in N steps of dt = 1/60 s means. From rest
// under a constant a, a solver that changes velocities first (v += h a, then x += h v; batched,
// split, soft) moves x = h Σ_{n=1..M} n h a = a t (t + h)/2 in t = M h, one that moves first
// (sequential) a t (t − h)/2, h being the substep: so a = 2 d / (t (t ± h)). (At t = 2 s the ± h
// term is 0.8% with h = 1/60 s, 0.3% with h = 1/180 s; the limit of both is d = a t²/2.)
static double acceleration_from_rest(rb_world_id w, double d, int steps)
{
    double t = steps * (double)PU_H, h = (double)PU_H / pu_substeps(w);
    return 2.0 * d / (t * (t + (pu_moves_first(w) ? -h : h)));
}

// Releases `s->body` at rest and returns the acceleration along the slope measured from the distance
// it slid in `steps` steps (see acceleration_from_rest). A body that starts late, or stops, slides
// less and reads low.
static double released_acceleration(const slope *s, int steps)
{
    pu_step(s->w, steps);
    return acceleration_from_rest(s->w, slid(s), steps);
}

// ---- 1. a box on a slope steeper than its friction angle slides at once ---------------------

static bool box_slides_with_kinetic_friction(double theta_deg, float mu, bool sleep)
{
    // a = g (sin θ − μ cos θ), measured over 2 s from rest, within 2%.
    double theta = theta_deg * DEG;
    material m = {mu, 0.0f};
    slope s = make_slope(theta, m, sleep);
    add_box(&s, theta, m, 0.0f);
    double a = released_acceleration(&s, 120);
    double expected = PU_G * (sin(theta) - mu * cos(theta));
    print_message("box on %.0f deg, mu %.2f, sleeping %s: slid %.4f m in 2 s, a = %.4f m/s^2, expected %.4f "
                  "(%+.2f%%)\n",
                  theta_deg, mu, sleep ? "on" : "off", slid(&s), a, expected, 100.0 * (a - expected) / expected);
    rb_destroy_world(s.w);
    return pu_rel_err(a, expected) < 0.02;
}

static void box_on_slopes_steeper_than_friction_angle(bool sleep)
{
    // θ = 20°, μ = 0.3 (friction angle atan 0.3 = 16.7°): a = 9.81 (0.34202 − 0.3 · 0.93969)
    // = 0.5897 m/s², 1.18 m in 2 s. θ = 30°: a = 9.81 (0.5 − 0.3 · 0.86603) = 2.3563 m/s².
    bool ok20 = box_slides_with_kinetic_friction(20.0, 0.3f, sleep);
    bool ok30 = box_slides_with_kinetic_friction(30.0, 0.3f, sleep);
    if (!ok20 || !ok30)
        fail_msg("acceleration off by more than 2%% on %s", !ok20 && !ok30 ? "both slopes" : ok20 ? "30 deg" : "20 deg");
}

static void test_box_on_a_slope_steeper_than_its_friction_angle_slides_at_once_with_the_analytic_acceleration_sleeping_on(
    void **state)
{
    (void)state;
    box_on_slopes_steeper_than_friction_angle(true);
}

static void test_box_on_a_slope_steeper_than_its_friction_angle_slides_at_once_with_the_analytic_acceleration_sleeping_off(
    void **state)
{
    (void)state;
    box_on_slopes_steeper_than_friction_angle(false);
}

// ---- 2. a frictionless box slides at g sin θ --------------------------------------------------

static void test_frictionless_box_slides_down_slopes_of_10_25_and_40_degrees_at_g_sin_theta(void **state)
{
    (void)state;
    // μ = 0 on both shapes (sqrt(0 · 0) = 0), sleeping on: a = g sin θ = 1.7035, 4.1459, 6.3057 m/s²
    // for 10°, 25°, 40°, measured over 2 s from rest, within 2%.
    const double angles[] = {10.0, 25.0, 40.0};
    int bad = 0;
    for (int i = 0; i < 3; ++i) {
        double theta = angles[i] * DEG;
        material m = {0.0f, 0.0f};
        slope s = make_slope(theta, m, true);
        add_box(&s, theta, m, 0.0f);
        double a = released_acceleration(&s, 120), expected = PU_G * sin(theta);
        print_message("frictionless box on %.0f deg: a = %.4f m/s^2, expected %.4f (%+.2f%%)\n", angles[i], a, expected,
                      100.0 * (a - expected) / expected);
        bad += pu_rel_err(a, expected) >= 0.02;
        rb_destroy_world(s.w);
    }
    if (bad)
        fail_msg("%d of 3 slopes off by more than 2%%", bad);
}

// ---- 3. a ball rolls without slipping ---------------------------------------------------------

static void ball_rolls_without_slipping(bool sleep)
{
    // A solid sphere (I = 2/5 m r²) rolling without slipping: m a = m g sin θ − F, I α = F r, a = α r,
    // so a = g sin θ / (1 + 2/5) = (5/7) g sin θ = (5/7) 9.81 · 0.34202 = 2.3966 m/s² at θ = 20°.
    // The friction this needs, F = (2/7) m g sin θ, is (2/7) tan θ = 0.104 of the normal force, well
    // inside μ = 0.6: the contact point does not slip. Measured over 2 s from rest, within 2%; and the
    // ball rolls: its contact point is at rest, v = ω × r n, so (ω × n)·d r = v within 2%.
    const double theta = 20.0 * DEG;
    material m = {0.6f, 0.0f};
    slope s = make_slope(theta, m, sleep);
    add_ball(&s, m);
    double a = released_acceleration(&s, 120), expected = 5.0 / 7.0 * PU_G * sin(theta);
    double v = speed_down(&s), wr = v3_dot(v3_cross(pu_angular_velocity(s.body), s.n), s.down) * 0.25;
    print_message("ball on 20 deg, mu 0.6, sleeping %s: a = %.4f m/s^2, expected %.4f (%+.2f%%); v = %.4f m/s, "
                  "w r = %.4f m/s\n",
                  sleep ? "on" : "off", a, expected, 100.0 * (a - expected) / expected, v, wr);
    rb_destroy_world(s.w);
    if (pu_rel_err(a, expected) >= 0.02)
        fail_msg("rolling ball: a = %.4f m/s^2, expected (5/7) g sin 20 = %.4f", a, expected);
    if (pu_rel_err(wr, v) >= 0.02)
        fail_msg("rolling ball slips: w r = %.4f m/s, v = %.4f m/s", wr, v);
}

static void test_ball_released_on_a_slope_rolls_without_slipping_at_five_sevenths_g_sin_theta_sleeping_on(void **state)
{
    (void)state;
    ball_rolls_without_slipping(true);
}

static void test_ball_released_on_a_slope_rolls_without_slipping_at_five_sevenths_g_sin_theta_sleeping_off(void **state)
{
    (void)state;
    ball_rolls_without_slipping(false);
}

// ---- 4. sleeping never freezes a body that gravity is accelerating ----------------------------

static void test_sleeping_never_freezes_a_box_sliding_slowly_down_a_slope_just_steeper_than_its_friction_angle(
    void **state)
{
    (void)state;
    // θ = 17.5°, μ = 0.3 (friction angle 16.70°): a = 9.81 (0.30071 − 0.3 · 0.95372) = 0.1432 m/s².
    // The box is slow for a long time (v = a t: 5 cm/s only after 0.35 s, 0.43 m/s at 3 s), which a
    // sleep test that looks at speed alone may take for rest; but it is accelerating all the time.
    // Sleeping on: after 3 s (180 steps) it is awake, moving (v ≥ a t / 2), and has slid
    // d = a t²/2 = 0.644 m within 5% (a from d as in acceleration_from_rest).
    const double theta = 17.5 * DEG;
    material m = {0.3f, 0.0f};
    slope s = make_slope(theta, m, true);
    add_box(&s, theta, m, 0.0f);
    double expected = PU_G * (sin(theta) - 0.3 * cos(theta));
    pu_step(s.w, 180);
    double d = slid(&s), a = acceleration_from_rest(s.w, d, 180), v = speed_down(&s);
    bool awake = pu_awake(s.body);
    print_message("box on 17.5 deg, mu 0.3, sleeping on: after 3 s %s, v = %.4f m/s (a t = %.4f), slid %.4f m "
                  "(a t^2/2 = %.4f); a = %.4f m/s^2, expected %.4f (%+.2f%%)\n",
                  awake ? "awake" : "ASLEEP", v, expected * 3.0, d, expected * 4.5, a, expected,
                  100.0 * (a - expected) / expected);
    rb_destroy_world(s.w);
    if (!awake || v < 0.5 * expected * 3.0)
        fail_msg("the sliding box was stopped: %s, v = %.4f m/s after 3 s, expected %.4f", awake ? "awake" : "asleep", v,
                 expected * 3.0);
    if (pu_rel_err(a, expected) >= 0.05)
        fail_msg("slid %.4f m in 3 s (a = %.4f m/s^2), expected a t^2/2 with a = %.4f", d, a, expected);
}

// The same family, slower still: boxes 0.3°, 0.5° and 0.8° past their friction angle (a = 0.054 to
// 0.14 m/s²) and balls on slopes of 0.25°, 0.5° and 1° (a = 0.031 to 0.12 m/s²), sleeping on. Each
// stays under the sleep tolerance (5 cm/s) for 0.4 to 1.6 s, longer than time_to_sleep (0.5 s), and
// slept so on every solver but pe's: what tells it from a body at rest is that its speed keeps rising
// (rb_rest_timer). After 3 s each is awake and has gone a t²/2 within 5%.
static void test_sleeping_never_freezes_boxes_just_past_their_friction_angle_or_balls_on_gentle_slopes(void **state)
{
    (void)state;
    const double friction_angle = atan(0.3);
    int bad = 0;
    for (int k = 0; k < 6; ++k) {
        int ball = k >= 3;
        const double ball_deg[] = {0.25, 0.5, 1.0}, past_deg[] = {0.3, 0.5, 0.8};
        double theta = ball ? ball_deg[k - 3] * DEG : friction_angle + past_deg[k] * DEG;
        material m = {ball ? 0.6f : 0.3f, 0.0f};
        slope s = make_slope(theta, m, true);
        if (ball)
            add_ball(&s, m);
        else
            add_box(&s, theta, m, 0.0f);
        double expected = ball ? 5.0 / 7.0 * PU_G * sin(theta) : PU_G * (sin(theta) - 0.3 * cos(theta));
        pu_step(s.w, 180);
        double d = slid(&s), a = acceleration_from_rest(s.w, d, 180);
        bool awake = pu_awake(s.body);
        print_message("%s on %.2f deg, sleeping on: after 3 s %s, slid %.4f m; a = %.4f m/s^2, expected %.4f "
                      "(%+.2f%%)\n",
                      ball ? "ball" : "box", theta / DEG, awake ? "awake" : "ASLEEP", d, a, expected,
                      100.0 * (a - expected) / expected);
        rb_destroy_world(s.w);
        bad += !awake || pu_rel_err(a, expected) >= 0.05;
    }
    if (bad)
        fail_msg("%d of 6 slowly accelerating bodies were frozen by sleeping or slid off a t^2/2", bad);
}

// ---- 5. a box on a slope flatter than its static friction angle stays put --------------------

static void box_stays_put(double theta, material m, const char *what)
{
    // Sleeping off, so the solver itself must hold it: over 2 s from placement it moves at most 1 mm
    // along the surface (settling into the contact, along n, is not counted).
    slope s = make_slope(theta, m, false);
    add_box(&s, theta, m, 0.0f);
    pu_step(s.w, 60);
    double d1 = moved_along_surface(&s);
    pu_step(s.w, 60);
    double d2 = moved_along_surface(&s), v = speed_down(&s);
    print_message("%s: moved %.3g m along the slope in 1 s, %.3g m in 2 s (v = %.3g m/s)\n", what, d1, d2, v);
    rb_destroy_world(s.w);
    if (d2 > 1e-3)
        fail_msg("%s: the box moved %.4g m along the slope in 2 s (allowed 1 mm)", what, d2);
}

static void test_box_on_a_15_degree_slope_with_friction_0_3_stays_put(void **state)
{
    (void)state;
    // tan 15° = 0.268 < μs = μk = 0.3: friction needs g sin θ = 2.539 m/s² of the μ g cos θ = 2.843
    // m/s² available, so the box stays.
    material m = {0.3f, 0.0f};
    box_stays_put(15.0 * DEG, m, "box on 15 deg, mu 0.3");
}

static void test_box_on_a_slope_between_its_kinetic_and_static_friction_angles_is_held_by_static_friction(
    void **state)
{
    (void)state;
    // μs = 0.6, μk = 0.4, tan θ = 0.5 (θ = 26.57°): 0.5 < μs, so static friction holds the box;
    // a solver that used μk only would let it slide at g (sin θ − 0.4 cos θ) = 0.877 m/s² (1.75 m in
    // 2 s).
    material m = {0.4f, 0.6f};
    box_stays_put(atan(0.5), m, "box on tan 0.5, mu_s 0.6, mu_k 0.4");
}

// ---- 6. once it slides, kinetic friction applies ----------------------------------------------

static void test_box_pushed_down_a_slope_flatter_than_its_static_friction_angle_slides_with_kinetic_friction(
    void **state)
{
    (void)state;
    // μs = 0.6, μk = 0.3, tan θ = 0.5 (sin θ = 0.44721, cos θ = 0.89443), v0 = 1 m/s down the slope:
    // it is sliding, so kinetic friction applies and it accelerates at
    // a = g (sin θ − μk cos θ) = 9.81 · 0.17889 = 1.7549 m/s² (static friction would matter only
    // if it stopped, which it never does). Over 2 s, a = (v(2 s) − v0) / 2 s within 3% (exact for
    // either integration order), and it keeps sliding: v(2 s) = 4.51 m/s.
    const double theta = atan(0.5);
    material m = {0.3f, 0.6f};
    slope s = make_slope(theta, m, false);
    add_box(&s, theta, m, 1.0f);
    double v0 = speed_down(&s);
    pu_step(s.w, 120);
    double v = speed_down(&s), a = (v - v0) / (120.0 * (double)PU_H);
    double expected = PU_G * (sin(theta) - 0.3 * cos(theta));
    print_message("box at 1 m/s on tan 0.5, mu_s 0.6, mu_k 0.3: v(2 s) = %.4f m/s, a = %.4f m/s^2, expected %.4f "
                  "(%+.2f%%)\n",
                  v, a, expected, 100.0 * (a - expected) / expected);
    rb_destroy_world(s.w);
    if (pu_rel_err(a, expected) >= 0.03)
        fail_msg("a = %.4f m/s^2, expected g (sin - mu_k cos) = %.4f (v(2 s) = %.4f m/s)", a, expected, v);
}

// ---- 7. towers of unequal masses stand --------------------------------------------------------

typedef struct tower_box {
    rb_vec3 center; // m, resting position (the boxes touch exactly)
    rb_vec3 half;   // m
    float mass;     // kg
} tower_box;

// Builds the boxes on the ground (μ = 0.6, sleeping off), steps 10 s (600 steps), and checks that
// every box is within 1 cm of its resting centre height (no sinking: each contact may keep the
// solver's resting depth, 0.5–3 mm, far less) and within 1° of its first orientation.
static void tower_stands(const tower_box *tb, int n, const char *what)
{
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id b[8];
    rb_quat q0[8];
    for (int i = 0; i < n; ++i) {
        b[i] = pu_box(w, tb[i].center, quat_identity(), tb[i].half, tb[i].mass, 0.6f, 0.0f);
        q0[i] = pu_rotation(b[i]);
    }
    pu_step(w, 600);
    double worst_dy = 0.0, worst_tilt = 0.0;
    for (int i = 0; i < n; ++i) {
        rb_vec3 p = pu_position(b[i]);
        double dy = p.y - tb[i].center.y, tilt = quat_angle_between(q0[i], pu_rotation(b[i])) / DEG;
        print_message("%s: box %d (%.0f kg): y = %.5f m (rest %.5f, %+.2f mm), dx %+.2f mm, dz %+.2f mm, tilt %.3f deg\n",
                      what, i, pu_mass(b[i]), p.y, tb[i].center.y, 1e3 * dy, 1e3 * (p.x - tb[i].center.x),
                      1e3 * (p.z - tb[i].center.z), tilt);
        worst_dy = fabs(dy) > worst_dy ? fabs(dy) : worst_dy;
        worst_tilt = tilt > worst_tilt ? tilt : worst_tilt;
    }
    rb_destroy_world(w);
    if (worst_dy > 0.01 || worst_tilt > 1.0)
        fail_msg("%s after 10 s: worst height error %.2f mm (allowed 10), worst tilt %.3f deg (allowed 1)", what,
                 1e3 * worst_dy, worst_tilt);
}

static void test_heavy_box_on_a_light_box_100_to_1_stands_for_ten_seconds(void **state)
{
    if (skipped_for_this_solver("mass_ratio_100"))
        skip();
    (void)state;
    // Unit cubes: 1 kg at rest at y = 0.5, 100 kg on it at y = 1.5.
    const tower_box tb[] = {{{0.0f, 0.5f, 0.0f}, {0.5f, 0.5f, 0.5f}, 1.0f},
                            {{0.0f, 1.5f, 0.0f}, {0.5f, 0.5f, 0.5f}, 100.0f}};
    tower_stands(tb, 2, "100 kg on 1 kg");
}

static void test_heavy_box_resting_on_two_light_boxes_under_its_ends_stands_for_ten_seconds(void **state)
{
    if (skipped_for_this_solver("mass_ratio"))
        skip();
    (void)state;
    // Two 1 kg cubes of 0.2 m (half 0.1) on the ground at x = ±0.4 (centres y = 0.1), under the ends of
    // a 1000 kg box 1 m × 0.5 m × 1 m (half 0.5, 0.25, 0.5) whose bottom face rests on them at
    // y = 0.2: its centre at y = 0.45. Each light box carries 500 kg.
    const tower_box tb[] = {{{-0.4f, 0.1f, 0.0f}, {0.1f, 0.1f, 0.1f}, 1.0f},
                            {{0.4f, 0.1f, 0.0f}, {0.1f, 0.1f, 0.1f}, 1.0f},
                            {{0.0f, 0.45f, 0.0f}, {0.5f, 0.25f, 0.5f}, 1000.0f}};
    tower_stands(tb, 3, "1000 kg on two 1 kg");
}

static void test_three_boxes_of_1_100_and_10000_kg_bottom_to_top_stand_for_ten_seconds(void **state)
{
    if (skipped_for_this_solver("mass_ratio"))
        skip();
    (void)state;
    // Unit cubes at y = 0.5, 1.5, 2.5 of 1 kg, 100 kg, 10,000 kg: mass ratios 100 at each contact.
    const tower_box tb[] = {{{0.0f, 0.5f, 0.0f}, {0.5f, 0.5f, 0.5f}, 1.0f},
                            {{0.0f, 1.5f, 0.0f}, {0.5f, 0.5f, 0.5f}, 100.0f},
                            {{0.0f, 2.5f, 0.0f}, {0.5f, 0.5f, 0.5f}, 10000.0f}};
    tower_stands(tb, 3, "1 : 100 : 10000 kg");
}

// ---- 8. a stack of thin plates keeps its height -----------------------------------------------

static void test_stack_of_ten_2_mm_plates_rests_with_its_top_at_20_mm(void **state)
{
    if (skipped_for_this_solver("plates"))
        skip();
    (void)state;
    // Ten plates 0.2 m × 2 mm × 0.2 m, 0.1 kg each, stacked on the ground touching (centres at
    // y = 1 mm + 2 mm k, k = 0..9), sleeping off: the top surface is at 10 × 2 mm = 20 mm. After 2 s it
    // is there within 0.5 mm (a plate is only 2 mm thick: sinking a resting depth of 0.5 mm at each of
    // the ten contact layers would lose a quarter of the stack), and every plate is still over the others
    // (centre within 1 cm of the axis, horizontal).
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id b[10];
    for (int k = 0; k < 10; ++k)
        b[k] = pu_box(w, v3(0.0f, 0.001f + 0.002f * (float)k, 0.0f), quat_identity(), v3(0.1f, 0.001f, 0.1f), 0.1f,
                      0.6f, 0.0f);
    pu_step(w, 120);
    double top = pu_position(b[9]).y + 0.001, worst_off_axis = 0.0;
    for (int k = 0; k < 10; ++k) {
        rb_vec3 p = pu_position(b[k]);
        double off = hypot(p.x, p.z);
        worst_off_axis = off > worst_off_axis ? off : worst_off_axis;
    }
    print_message("10 plates of 2 mm: top surface at %.3f mm (expected 20.000), bottom plate centre %.3f mm (1.000), "
                  "worst off axis %.3g m\n",
                  1e3 * top, 1e3 * pu_position(b[0]).y, worst_off_axis);
    rb_destroy_world(w);
    if (fabs(top - 0.020) > 0.0005)
        fail_msg("top of the stack at %.3f mm, expected 20 mm within 0.5", 1e3 * top);
    if (worst_off_axis > 0.01)
        fail_msg("a plate left the stack: %.4f m off the axis", worst_off_axis);
}

// ---- 9. Newton's cradle -----------------------------------------------------------------------

// Five 1 kg balls of radius 0.1 m in a row along x, touching (centres 0.2 m apart), no gravity, μ = 0,
// e = 1; the first k move at 1 m/s towards the others. Momentum k kg m/s and energy k/2 J can leave
// the chain with the balls all at 0 or 1 m/s only as the last k balls at 1 m/s: elastic impacts
// between equal balls exchange velocities, one contact after the other along the chain. After 1 s
// (60 steps; the exchanges take a few steps): the last k at 1 m/s within 2%, the first 5 − k at rest
// (|v| ≤ 0.02 m/s), momentum and kinetic energy within 1%.
//
// The restitution threshold is set to 0.1 m/s: batched and split take 1 m/s by default, exactly the
// speed of this cradle, and the impacts down the chain must bounce whatever their speed.
static void cradle_with_gaps(int k, float gap)
{
    rb_world_def d = pu_world_def(false);
    d.gravity = v3(0.0f, 0.0f, 0.0f);
    d.restitution_threshold = 0.1f;
    rb_world_id w = pu_make_world_from(&d);
    rb_body_id ball[5];
    for (int i = 0; i < 5; ++i) {
        rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3((0.2f + gap) * (float)i, 1.0f, 0.0f), quat_identity(), 1.0f);
        if (i < k)
            bd.linear_velocity = v3(1.0f, 0.0f, 0.0f);
        rb_shape_def sd = pu_material(0.0f, 1.0f);
        ball[i] = pu_add_sphere_body(w, &bd, 0.1f, &sd);
    }
    pu_step(w, 60);
    rb_vec3 p = v3(0.0f, 0.0f, 0.0f);
    double e = 0.0;
    int bad = 0;
    char line[256];
    int len = 0;
    for (int i = 0; i < 5; ++i) {
        rb_vec3 v = pu_velocity(ball[i]);
        p = v3_add(p, pu_linear_momentum(ball[i]));
        e += pu_kinetic_energy(ball[i]);
        bool ok = i >= 5 - k ? v3_len(v3_sub(v, v3(1.0f, 0.0f, 0.0f))) <= 0.02f : v3_len(v) <= 0.02f;
        bad += !ok;
        len += snprintf(line + len, sizeof line - (size_t)len, " %+.4f", v.x);
    }
    double dp = v3_len(v3_sub(p, v3((float)k, 0.0f, 0.0f))) / k, de = pu_rel_err(e, 0.5 * k);
    print_message("cradle, %d pulled, gaps %.1f mm: v_x =%s m/s (expected %d at 0, %d at 1); momentum %.5f (expected "
                  "%d), energy %.5f J (expected %.1f)\n",
                  k, 1e3 * gap, line, 5 - k, k, p.x, k, e, 0.5 * k);
    rb_destroy_world(w);
    if (bad || dp > 0.01 || de > 0.01)
        fail_msg("cradle with %d pulled: %d balls off their velocity, momentum off by %.2f%%, energy by %.2f%% (v_x =%s)",
                 k, bad, 100.0 * dp, 100.0 * de, line);
}

static void cradle(int k) { cradle_with_gaps(k, 0.0f); }

static void test_ball_striking_an_equal_ball_on_a_table_hands_over_its_speed(void **state)
{
    (void)state;
    // Two 1 kg balls (r 0.25 m, e = 1) on a frictionless table, one rolling into the other at rest at
    // 1.2, 2 and 4 m/s (above the 1 m/s restitution threshold): the striker stops and the other
    // leaves at the striker's speed, within 1%. Each ball also rests on the table, so the split
    // solver's masses are shared between two contacts; one restitution sweep with them left 0.3 and
    // 0.9 of the speed.
    const float speeds[] = {1.2f, 2.0f, 4.0f};
    for (int i = 0; i < 3; ++i) {
        rb_world_id w = pu_make_world(false);
        pu_add_ground(w, 0.0f, 0.0f);
        rb_shape_def sd = pu_material(0.0f, 1.0f);
        rb_body_def da = pu_body_def(RB_BODY_DYNAMIC, v3(-1.0f, 0.25f, 0.0f), quat_identity(), 1.0f);
        da.linear_velocity = v3(speeds[i], 0.0f, 0.0f);
        rb_body_def db = pu_body_def(RB_BODY_DYNAMIC, v3(0.5f, 0.25f, 0.0f), quat_identity(), 1.0f);
        rb_body_id a = pu_add_sphere_body(w, &da, 0.25f, &sd), b = pu_add_sphere_body(w, &db, 0.25f, &sd);
        pu_step(w, 90);
        float va = pu_velocity(a).x, vb = pu_velocity(b).x;
        print_message("billiards at %.1f m/s: striker %+.4f m/s (expected 0), struck %+.4f (expected %+.4f)\n",
                      speeds[i], va, vb, speeds[i]);
        assert_true(fabsf(va) <= 0.01f * speeds[i]);
        assert_true(fabsf(vb - speeds[i]) <= 0.01f * speeds[i]);
        rb_destroy_world(w);
    }
}

static void test_newtons_cradle_with_one_ball_pulled_sends_one_ball_out_at_the_same_speed(void **state)
{
    if (skipped_for_this_solver("cradle"))
        skip();
    (void)state;
    cradle(1);
}

static void test_newtons_cradle_with_two_balls_pulled_sends_two_balls_out_at_the_same_speed(void **state)
{
    if (skipped_for_this_solver("cradle"))
        skip();
    (void)state;
    cradle(2);
}

static void test_newtons_cradle_with_three_balls_pulled_sends_three_balls_out_at_the_same_speed(void **state)
{
    if (skipped_for_this_solver("cradle"))
        skip();
    (void)state;
    cradle(3);
}

// The same cradle with the balls hung 0.5, 1 and 2 mm apart (each gap closes within one substep at
// 1 m/s): the impact still travels ball by ball. Left to the substeps, the row took it as one
// inelastic lump (1 mm, one ball pulled: the last left at 0.71 m/s, the first bounced back at 0.29,
// 30% of the energy lost).
static void test_newtons_cradle_with_balls_a_millimetre_apart_sends_out_as_many_as_were_pulled(void **state)
{
    if (skipped_for_this_solver("cradle_gaps"))
        skip();
    (void)state;
    const float gaps[] = {0.0005f, 0.001f, 0.002f};
    for (int g = 0; g < 3; ++g)
        for (int k = 1; k <= 3; ++k)
            cradle_with_gaps(k, gaps[g]);
}

static void test_plank_on_a_sliding_box_and_a_resting_one_is_dragged_by_kinetic_friction_only(void **state)
{
    (void)state;
    // Two 1 kg boxes (1 × 0.5 × 1 m) on frictionless ice, 1.2 m apart centre to centre, a 1 kg plank
    // (2.4 × 0.2 × 1 m) lying across both, μ 0.6 between the plank and each box. The right box is sent
    // sliding at 1 m/s. It slips under the plank's right half, which presses on it with half the
    // plank's weight, so kinetic friction μ m g / 2 = 2.94 N drags the plank; the plank holds the
    // left box by static friction, and the two accelerate together at 2.94 N / 2 kg = 1.47 m/s².
    // After 0.2 s (before the boxes meet the plank's ends): plank at 0.29 m/s within 15%, the left
    // box with it, momentum 1 kg m/s kept: the shock pass (batched, split) and the levels do not make
    // the plank follow either of the boxes under it.
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.0f, 0.0f);
    rb_body_id left = pu_box(w, v3(-0.6f, 0.25f, 0.0f), quat_identity(), v3(0.5f, 0.25f, 0.5f), 1.0f, 0.6f, 0.0f);
    rb_body_id right = pu_box(w, v3(0.6f, 0.25f, 0.0f), quat_identity(), v3(0.5f, 0.25f, 0.5f), 1.0f, 0.6f, 0.0f);
    rb_body_id plank = pu_box(w, v3(0.0f, 0.6f, 0.0f), quat_identity(), v3(1.2f, 0.1f, 0.5f), 1.0f, 0.6f, 0.0f);
    pu_step(w, 30); // settle
    RB_CHECK(rb_body_set_linear_velocity(right, v3(1.0f, 0.0f, 0.0f)));
    pu_step(w, 12);
    double vp = pu_velocity(plank).x, vl = pu_velocity(left).x, vr = pu_velocity(right).x;
    print_message("after 0.2 s: plank %.4f m/s (expected 0.294), left box %.4f, right box %.4f, momentum %.4f\n", vp,
                  vl, vr, vp + vl + vr);
    assert_true(pu_rel_err(vp, 0.294) < 0.15);
    assert_true(fabs(vl - vp) < 0.02);
    assert_true(fabs(vp + vl + vr - 1.0) < 0.01);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_box_on_a_slope_steeper_than_its_friction_angle_slides_at_once_with_the_analytic_acceleration_sleeping_on),
        cmocka_unit_test(
            test_box_on_a_slope_steeper_than_its_friction_angle_slides_at_once_with_the_analytic_acceleration_sleeping_off),
        cmocka_unit_test(test_frictionless_box_slides_down_slopes_of_10_25_and_40_degrees_at_g_sin_theta),
        cmocka_unit_test(test_ball_released_on_a_slope_rolls_without_slipping_at_five_sevenths_g_sin_theta_sleeping_on),
        cmocka_unit_test(test_ball_released_on_a_slope_rolls_without_slipping_at_five_sevenths_g_sin_theta_sleeping_off),
        cmocka_unit_test(
            test_sleeping_never_freezes_a_box_sliding_slowly_down_a_slope_just_steeper_than_its_friction_angle),
        cmocka_unit_test(test_sleeping_never_freezes_boxes_just_past_their_friction_angle_or_balls_on_gentle_slopes),
        cmocka_unit_test(test_box_on_a_15_degree_slope_with_friction_0_3_stays_put),
        cmocka_unit_test(test_box_on_a_slope_between_its_kinetic_and_static_friction_angles_is_held_by_static_friction),
        cmocka_unit_test(
            test_box_pushed_down_a_slope_flatter_than_its_static_friction_angle_slides_with_kinetic_friction),
        cmocka_unit_test(test_heavy_box_on_a_light_box_100_to_1_stands_for_ten_seconds),
        cmocka_unit_test(test_heavy_box_resting_on_two_light_boxes_under_its_ends_stands_for_ten_seconds),
        cmocka_unit_test(test_three_boxes_of_1_100_and_10000_kg_bottom_to_top_stand_for_ten_seconds),
        cmocka_unit_test(test_stack_of_ten_2_mm_plates_rests_with_its_top_at_20_mm),
        cmocka_unit_test(test_plank_on_a_sliding_box_and_a_resting_one_is_dragged_by_kinetic_friction_only),
        cmocka_unit_test(test_ball_striking_an_equal_ball_on_a_table_hands_over_its_speed),
        cmocka_unit_test(test_newtons_cradle_with_one_ball_pulled_sends_one_ball_out_at_the_same_speed),
        cmocka_unit_test(test_newtons_cradle_with_two_balls_pulled_sends_two_balls_out_at_the_same_speed),
        cmocka_unit_test(test_newtons_cradle_with_three_balls_pulled_sends_three_balls_out_at_the_same_speed),
        cmocka_unit_test(test_newtons_cradle_with_balls_a_millimetre_apart_sends_out_as_many_as_were_pulled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
