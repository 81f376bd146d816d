// Free motion: bodies that touch nothing. Gravity, damping, forces, impulses and torque-free spin
// against the closed forms of the integrator, per substep of length h_s = h / S:
// - batched and split (velocity first, semi-implicit Euler): v += h_s (g + F/m), then x += h_s v;
// - sequential (positions first, Schornbaum 2010 Alg. 6): x += h_s v, then v += h_s (g + F/m);
// quaternion update with an implicit gyroscopic term in both. Over N = n S substeps the two orders
// differ only in the sign s (+1 velocity first, -1 positions first) of one term: the position after a
// fall is y0 + v0 t - g t²/2 - s g h_s t / 2.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "physics_util.h"

// A 1 kg sphere of radius 0.5 at `p`, no ground anywhere.
static rb_body_id free_sphere(rb_world_id w, rb_vec3 p, rb_vec3 v)
{
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, p, quat_identity(), 1.0f);
    bd.linear_velocity = v;
    rb_shape_def sd = rb_default_shape_def();
    return pu_add_sphere_body(w, &bd, 0.5f, &sd);
}

// +1 if the world changes velocities before it moves positions, -1 if it moves them first.
static double order_sign(rb_world_id w) { return pu_moves_first(w) ? -1.0 : 1.0; }

static void test_free_fall_matches_the_semi_implicit_euler_closed_form(void **state)
{
    (void)state;
    // Over N substeps of h_s: v_N = v0 − N g h_s and y_N = y0 + v0 N h_s − g h_s² N(N + s)/2 (the
    // sum of the velocities after (s = +1) or before (s = −1) each update). y0 = 10 m, v0 = +2 m/s,
    // 60 steps: batched (S = 1) y = 12 − 9.81·1830/3600 = 7.01325 m; sequential (S = 3, N = 180)
    // y = 12 − 9.81·180·179/(2·180²) = 7.12238 m; v = 2 − 9.81 = −7.81 m/s in both.
    // Tolerance: each substep rounds y once (≤ ½ ulp of a value below 16 m, 4.8e-7 m) and v once; over
    // N substeps at most N · 9.5e-7: 1e-4 per 60.
    rb_world_id w = pu_make_world(false);
    const double y0 = 10.0, v0 = 2.0, g = (double)PU_G, s = order_sign(w);
    const double hs = (double)PU_H / pu_substeps(w);
    rb_body_id b = free_sphere(w, v3(0.0f, (float)y0, 0.0f), v3(0.0f, (float)v0, 0.0f));
    const int n = 60, N = n * pu_substeps(w);
    const double tol = 1e-4 * pu_substeps(w);
    pu_step(w, n);
    double y_closed = y0 + v0 * N * hs - g * hs * hs * N * (N + s) / 2.0;
    double v_closed = v0 - N * g * hs;
    assert_float_equal(pu_position(b).y, y_closed, tol);
    assert_float_equal(pu_velocity(b).y, v_closed, tol);
    assert_true(pu_position(b).x == 0.0f && pu_position(b).z == 0.0f);
    rb_destroy_world(w);
}

static void test_free_fall_differs_from_the_parabola_by_the_first_order_error(void **state)
{
    (void)state;
    // Continuous: y(t) = y0 + v0 t − g t²/2. The discrete closed form minus this is
    // −g h_s² N(N + s)/2 + g (N h_s)²/2 = −s g h_s t / 2: at t = 1 s, −9.81/120 = −0.08175 m (batched,
    // O(h), lower) or +9.81/360 = +0.02725 m (sequential, h_s = h/3, higher).
    // The difference must be that term, to float precision (as above).
    rb_world_id w = pu_make_world(false);
    const double y0 = 10.0, v0 = 2.0, g = (double)PU_G, s = order_sign(w);
    const double hs = (double)PU_H / pu_substeps(w), tol = 1e-4 * pu_substeps(w);
    rb_body_id b = free_sphere(w, v3(0.0f, (float)y0, 0.0f), v3(0.0f, (float)v0, 0.0f));
    const int n = 60;
    pu_step(w, n);
    double t = n * (double)PU_H;
    double y_parabola = y0 + v0 * t - 0.5 * g * t * t;
    double err = pu_position(b).y - y_parabola;
    assert_float_equal(err, -0.5 * s * g * hs * t, tol);
    assert_true(fabs(err) <= 0.5 * g * hs * t + tol);
    rb_destroy_world(w);
}

static void test_projectile_keeps_its_horizontal_velocity_and_lands_at_the_predicted_range(void **state)
{
    (void)state;
    // Launched from y = 0 at (vx, vy) = (4, 6) m/s. No horizontal force: vx stays 4 exactly, and
    // x_n = n h vx (one rounding per step: ≤ 60·½ ulp(8) ≈ 3e-5 m after ~1.2 s).
    // Discrete landing: y_N = vy N h_s − g h_s² N(N+s)/2 = 0 at N + s = 2 vy / (g h_s), i.e. at
    // t = 2 vy/g − s h_s, so the range is R = vx (2 vy/g − s h_s): batched 4.8930 − 0.0667 = 4.8264 m,
    // sequential 4.8930 + 0.0222 = 4.9152 m.
    // We interpolate linearly between the two steps that straddle y = 0: the chord of the discrete
    // parabola is off by ≤ g h²/8 = 3.4e-4 m in y, i.e. ≤ 3.4e-4 · vx/vy = 2.3e-4 m in x: 5e-4.
    // The continuous range 2 vx vy / g = 4.8930 m is within vx h_s (+ the same 5e-4) of it.
    rb_world_id w = pu_make_world(false);
    const double vx = 4.0, vy = 6.0, g = (double)PU_G, h = (double)PU_H, s = order_sign(w);
    const double hs = h / pu_substeps(w);
    rb_body_id b = free_sphere(w, v3(0.0f, 0.0f, 0.0f), v3((float)vx, (float)vy, 0.0f));
    rb_vec3 prev = pu_position(b);
    double range = -1.0;
    for (int n = 1; n <= 200 && range < 0.0; ++n) {
        pu_step(w, 1);
        rb_vec3 p = pu_position(b);
        assert_true(pu_velocity(b).x == 4.0f);
        assert_float_equal(p.x, n * h * vx, 1e-4);
        if (prev.y > 0.0f && p.y <= 0.0f) {
            double s = prev.y / (prev.y - p.y);
            range = prev.x + s * (p.x - prev.x);
        }
        prev = p;
    }
    assert_true(range > 0.0);
    assert_float_equal(range, vx * (2.0 * vy / g - s * hs), 5e-4);
    assert_true(fabs(range - 2.0 * vx * vy / g) <= vx * hs + 5e-4);
    rb_destroy_world(w);
}

static void test_body_with_gravity_scale_zero_floats(void **state)
{
    (void)state;
    // gravity_scale 0: acceleration g·0 = 0, so v stays 0 and x + h·0 = x, exactly.
    rb_world_id w = pu_make_world(false);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(1.0f, 5.0f, -2.0f), quat_identity(), 1.0f);
    bd.gravity_scale = 0.0f;
    rb_shape_def sd = rb_default_shape_def();
    rb_body_id b = pu_add_box_body(w, &bd, v3(0.5f, 0.5f, 0.5f), &sd);
    pu_step(w, 120);
    rb_vec3 p = pu_position(b), v = pu_velocity(b);
    assert_true(p.x == 1.0f && p.y == 5.0f && p.z == -2.0f);
    assert_true(v.x == 0.0f && v.y == 0.0f && v.z == 0.0f);
    rb_destroy_world(w);
}

static void test_linear_damping_decays_speed_by_the_pade_factor_each_step(void **state)
{
    (void)state;
    // Per substep v ← v / (1 + h_s c). c = 0.8 /s, n = 120 steps (2 s): factor (1/(1 + 0.8/60))^120 =
    // 0.20409 (S = 1), where the exact exponential e^{−c t} = e^{−1.6} = 0.20190 differs by 1.1%
    // (O(h_s c); 0.36% with S = 3: (1/(1 + 0.8/180))^360 = 0.20263).
    // Float: the per-substep factor is rounded once (≤ 1 ulp, relative 6e-8, systematic) and each
    // product once: relative error ≤ N · 2 · 6e-8 = 1.4e-5 per 120; 5e-5 relative per 120.
    rb_world_id w = pu_make_world(false);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, 3.0f, 0.0f), quat_identity(), 1.0f);
    bd.gravity_scale = 0.0f;
    bd.linear_damping = 0.8f;
    bd.linear_velocity = v3(6.0f, 0.0f, -3.0f);
    rb_shape_def sd = rb_default_shape_def();
    rb_body_id b = pu_add_sphere_body(w, &bd, 0.5f, &sd);
    const int n = 120, S = pu_substeps(w);
    pu_step(w, n);
    double factor = pow(1.0 / (1.0 + (double)PU_H / S * 0.8), n * S);
    double exact = exp(-0.8 * n * (double)PU_H);
    rb_vec3 v = pu_velocity(b);
    assert_true(pu_rel_err(v.x, 6.0 * factor) < 5e-5 * S);
    assert_true(pu_rel_err(v.z, -3.0 * factor) < 5e-5 * S);
    assert_true(v.y == 0.0f);
    // and it is the Padé form, not the exponential (they differ by 10× the tolerance or more)
    assert_true(pu_rel_err(v.x, 6.0 * exact) > 0.5 * pu_rel_err(factor, exact));
    rb_destroy_world(w);
}

static void test_angular_damping_decays_spin_by_the_pade_factor_each_step(void **state)
{
    (void)state;
    // Same law for ω with c = 1.5 /s: ω ← ω / (1 + h_s c) per substep; a sphere spun about y has no
    // gyroscopic torque, so nothing else acts. n = 60, S = 1: factor 0.22412; tolerance as above.
    rb_world_id w = pu_make_world(false);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, 3.0f, 0.0f), quat_identity(), 1.0f);
    bd.gravity_scale = 0.0f;
    bd.angular_damping = 1.5f;
    bd.angular_velocity = v3(0.0f, 4.0f, 0.0f);
    rb_shape_def sd = rb_default_shape_def();
    rb_body_id b = pu_add_sphere_body(w, &bd, 0.5f, &sd);
    const int n = 60, S = pu_substeps(w);
    pu_step(w, n);
    double factor = pow(1.0 / (1.0 + (double)PU_H / S * 1.5), n * S);
    assert_true(pu_rel_err(pu_angular_velocity(b).y, 4.0 * factor) < 5e-5 * S);
    rb_destroy_world(w);
}

// Asymmetric box (half extents 0.6 × 0.3 × 0.15 m, 2 kg: I = diag(0.075, 0.255, 0.300) kg·m²),
// turned away from the world axes and spun about a non-principal axis, in zero gravity.
static rb_body_id spinning_asymmetric_box(rb_world_id w)
{
    rb_quat q = rb_quat_from_axis_angle(v3(1.0f, 2.0f, 0.5f), 0.7f);
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, 0.0f, 0.0f), q, 2.0f);
    bd.angular_velocity = v3(2.0f, 1.0f, 3.0f);
    rb_shape_def sd = rb_default_shape_def();
    return pu_add_box_body(w, &bd, v3(0.6f, 0.3f, 0.15f), &sd);
}

static void test_torque_free_asymmetric_box_keeps_its_angular_momentum(void **state)
{
    (void)state;
    // No torque: L = R I Rᵀ ω is constant in the world frame, while ω itself precesses (the box
    // tumbles: ω is not along a principal axis). The implicit gyroscopic step solves
    // I(ω' − ω) + h ω' × Iω' = 0 in the body frame.
    // Requirement: |L(t) − L(0)| ≤ 1% |L(0)| at every 60th step up to 600 steps (10 s, ~5 turns).
    // This bounds both the magnitude and the direction (1% ≈ 0.57°).
    // (Measured on the first version of the engine: 3.5% — |L| shrinks by 3.4% and turns 1.1°; a
    // double-precision reference of the same backward-Euler step gives the same, so it is the
    // scheme, not rounding. An implicit-midpoint step gives 1.2%, all of it direction.)
    rb_world_id w = pu_make_world_zero_g();
    rb_body_id b = spinning_asymmetric_box(w);
    rb_mass_data md;
    RB_CHECK(rb_body_get_mass_data(b, &md));
    assert_float_equal(md.inertia.x, 2.0 / 12.0 * (0.36 + 0.09), 1e-5);
    assert_float_equal(md.inertia.y, 2.0 / 12.0 * (1.44 + 0.09), 1e-5);
    assert_float_equal(md.inertia.z, 2.0 / 12.0 * (1.44 + 0.36), 1e-5);
    rb_vec3 l0 = pu_spin_momentum(b);
    rb_vec3 w0 = pu_angular_velocity(b);
    double worst = 0.0, w_change = 0.0, worst_mag = 0.0, worst_angle = 0.0;
    for (int k = 1; k <= 10; ++k) {
        pu_step(w, 60);
        rb_vec3 l = pu_spin_momentum(b);
        double e = v3_dist(l, l0) / v3_len(l0);
        worst = e > worst ? e : worst;
        double mag = fabs(v3_len(l) / v3_len(l0) - 1.0);
        worst_mag = mag > worst_mag ? mag : worst_mag;
        double c = v3_dot(l, l0) / (v3_len(l) * v3_len(l0));
        double angle = acos(c > 1.0 ? 1.0 : c);
        worst_angle = angle > worst_angle ? angle : worst_angle;
        double dw = v3_dist(pu_angular_velocity(b), w0) / v3_len(w0);
        w_change = dw > w_change ? dw : w_change;
    }
    print_message("asymmetric box, 600 steps: max |L - L0|/|L0| = %.4f (|L| change %.4f, direction %.3f deg), "
                  "max |w - w0|/|w0| = %.3f\n",
                  worst, worst_mag, worst_angle * 180.0 / PU_PI, w_change);
    // ω must have precessed visibly, or the test would not exercise the gyroscopic term
    assert_true(w_change > 0.1);
    assert_true(worst < 0.01);
    rb_destroy_world(w);
}

// E = ½ ωᵀ I ω is conserved by the exact motion. The implicit (backward Euler) gyroscopic step
// never adds energy: |I ω'| ≤ |I ω| since I ω = I ω' + h ω' × I ω' with the second term ⊥ I ω'.
static void test_torque_free_asymmetric_box_never_gains_kinetic_energy(void **state)
{
    (void)state;
    // No gain beyond float rounding. The implicit midpoint gyroscopic step conserves E exactly in exact
    // arithmetic; in float each substep rounds by about one ulp (2^-24 = 6e-8 relative; measured: a
    // steady +6e-8 per substep over 6000). So E(t) <= E(0) (1 + 1e-4 S) at every step of 600 (rounding
    // allows 3.6e-5 S), where a scheme that gains energy (the explicit gyroscopic term) exceeds this
    // within a few steps.
    rb_world_id w = pu_make_world_zero_g();
    rb_body_id b = spinning_asymmetric_box(w);
    double e0 = pu_rotational_energy(b), e_max = e0;
    for (int k = 1; k <= 600; ++k) {
        pu_step(w, 1);
        double e = pu_rotational_energy(b);
        e_max = e > e_max ? e : e_max;
    }
    print_message("asymmetric box: E0 = %.7f J, max over 600 steps %.7f J (%+.3g)\n", e0, e_max, (e_max - e0) / e0);
    assert_true(e_max <= e0 * (1.0 + 1e-4 * pu_substeps(w)));
    rb_destroy_world(w);
}

static void test_torque_free_asymmetric_box_loses_at_most_a_few_percent_of_its_kinetic_energy(void **state)
{
    (void)state;
    // The gyroscopic step must not dissipate much either: backward Euler (the first version of the
    // engine) removed O((h |ω|)²) of E per step, with h |ω| = 3.74/60 = 0.062 here — 8.5% over 600
    // steps (10 s). Bound: at most 3% lost. (The implicit midpoint rule now used loses nothing but
    // rounding.)
    rb_world_id w = pu_make_world_zero_g();
    rb_body_id b = spinning_asymmetric_box(w);
    double e0 = pu_rotational_energy(b), e_min = e0;
    for (int k = 1; k <= 600; ++k) {
        pu_step(w, 1);
        double e = pu_rotational_energy(b);
        e_min = e < e_min ? e : e_min;
    }
    print_message("asymmetric box: E0 = %.6f J, min over 600 steps %.6f J (%.3g%%)\n", e0, e_min,
                  100.0 * (e_min - e0) / e0);
    assert_true(e_min >= e0 * (1.0 - 0.03));
    rb_destroy_world(w);
}

static void test_sphere_spinning_about_one_axis_keeps_its_angular_velocity_exactly(void **state)
{
    (void)state;
    // Isotropic inertia: ω × Iω = 0, and with ω along y the orientation stays a rotation about y,
    // so every product that could round is a product with an exact zero: ω is bitwise unchanged.
    rb_world_id w = pu_make_world_zero_g();
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, 0.0f, 0.0f), quat_identity(), 1.0f);
    bd.angular_velocity = v3(0.0f, 7.0f, 0.0f);
    rb_shape_def sd = rb_default_shape_def();
    rb_body_id b = pu_add_sphere_body(w, &bd, 0.5f, &sd);
    for (int k = 0; k < 600; ++k) {
        pu_step(w, 1);
        rb_vec3 om = pu_angular_velocity(b);
        if (!(om.x == 0.0f && om.y == 7.0f && om.z == 0.0f))
            fail_msg("step %d: w = (%.9g, %.9g, %.9g), expected (0, 7, 0)", k + 1, om.x, om.y, om.z);
    }
    rb_destroy_world(w);
}

static void test_force_at_center_gives_acceleration_f_over_m_for_one_step(void **state)
{
    (void)state;
    // m = 2 kg, F = (6, −4, 2) N: a = F/m = (3, −2, 1) m/s², so after one step v = h a (one
    // rounding: relative 6e-8; 1e-6). The force is cleared after the step: the next step, with no
    // force applied, leaves v bitwise unchanged (zero gravity).
    rb_world_id w = pu_make_world_zero_g();
    rb_body_id b = pu_sphere(w, v3(0.0f, 0.0f, 0.0f), 0.5f, 2.0f, 0.6f, 0.0f);
    RB_CHECK(rb_body_apply_force_to_center(b, v3(6.0f, -4.0f, 2.0f), true));
    pu_step(w, 1);
    rb_vec3 v = pu_velocity(b);
    double h = (double)PU_H;
    assert_float_equal(v.x / h, 3.0, 1e-5);
    assert_float_equal(v.y / h, -2.0, 1e-5);
    assert_float_equal(v.z / h, 1.0, 1e-5);
    rb_vec3 om = pu_angular_velocity(b);
    assert_true(om.x == 0.0f && om.y == 0.0f && om.z == 0.0f);
    pu_step(w, 1);
    rb_vec3 v2 = pu_velocity(b);
    assert_memory_equal(&v, &v2, sizeof v);
    rb_destroy_world(w);
}

static void test_off_center_force_produces_the_torque_r_cross_f(void **state)
{
    (void)state;
    // A 1 kg sphere of radius 0.5 whose shape sits 0.3 m along x from the body origin: the centre
    // of mass c is there too, and I = 2/5 m r² = 0.1 kg·m² about it. F = (0, 0, 10) N applied at
    // c + r, r = (1, 0, 0) m: τ = r × F = (0, −10, 0) N·m, so after one step
    // Δω = h τ / I = (0, −1.6667, 0) rad/s and Δv = h F / m = (0, 0, 0.16667) m/s.
    // (An isotropic body has no gyroscopic term.) Float: 1e-5 relative.
    rb_world_id w = pu_make_world_zero_g();
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, v3(0.0f, 0.0f, 0.0f), quat_identity(), 1.0f);
    rb_shape_def sd = rb_default_shape_def();
    sd.local_position = v3(0.3f, 0.0f, 0.0f);
    rb_body_id b = pu_add_sphere_body(w, &bd, 0.5f, &sd);
    rb_vec3 c = pu_center(b);
    assert_float_equal(c.x, 0.3f, 1e-6);
    RB_CHECK(rb_body_apply_force(b, v3(0.0f, 0.0f, 10.0f), v3_add(c, v3(1.0f, 0.0f, 0.0f)), true));
    pu_step(w, 1);
    double h = (double)PU_H;
    rb_vec3 om = pu_angular_velocity(b), v = pu_velocity(b);
    assert_true(pu_rel_err(om.y, -h * 10.0 / 0.1) < 1e-5);
    assert_float_equal(om.x, 0.0f, 1e-6);
    assert_float_equal(om.z, 0.0f, 1e-6);
    assert_true(pu_rel_err(v.z, h * 10.0) < 1e-5);
    assert_float_equal(v.x, 0.0f, 1e-6);
    assert_float_equal(v.y, 0.0f, 1e-6);
    rb_destroy_world(w);
}

static void test_impulses_change_velocity_at_once(void **state)
{
    (void)state;
    // m = 2 kg sphere of radius 0.5: I = 2/5 m r² = 0.2 kg·m². Before any step:
    //   J = (3, 0, −1) N·s at the centre      → Δv = J/m = (1.5, 0, −0.5) m/s, Δω = 0;
    //   J = (1, 0, 0) at c + (0, 0.5, 0)      → Δv = (0.5, 0, 0), Δω = I⁻¹ (r × J) = (0, 0, −2.5);
    //   angular impulse (0, 1, 0) N·m·s       → Δω = (0, 5, 0).
    rb_world_id w = pu_make_world_zero_g();
    rb_body_id b = pu_sphere(w, v3(0.0f, 0.0f, 0.0f), 0.5f, 2.0f, 0.6f, 0.0f);
    RB_CHECK(rb_body_apply_linear_impulse_to_center(b, v3(3.0f, 0.0f, -1.0f), true));
    rb_vec3 v = pu_velocity(b);
    assert_float_equal(v.x, 1.5f, 1e-6);
    assert_float_equal(v.y, 0.0f, 1e-6);
    assert_float_equal(v.z, -0.5f, 1e-6);

    RB_CHECK(rb_body_apply_linear_impulse(b, v3(1.0f, 0.0f, 0.0f), v3(0.0f, 0.5f, 0.0f), true));
    v = pu_velocity(b);
    rb_vec3 om = pu_angular_velocity(b);
    assert_float_equal(v.x, 2.0f, 1e-6);
    assert_float_equal(om.x, 0.0f, 1e-6);
    assert_float_equal(om.y, 0.0f, 1e-6);
    assert_float_equal(om.z, -2.5f, 1e-5);

    RB_CHECK(rb_body_apply_angular_impulse(b, v3(0.0f, 1.0f, 0.0f), true));
    om = pu_angular_velocity(b);
    assert_float_equal(om.y, 5.0f, 1e-5);
    assert_float_equal(om.z, -2.5f, 1e-5);
    rb_destroy_world(w);
}

static void test_kinematic_body_moves_with_constant_velocity_and_ignores_gravity(void **state)
{
    (void)state;
    // Kinematic: infinite mass, moved only by its velocity. v = (1, 0.5, −2) m/s, ω = 1 rad/s about y,
    // gravity on. After 60 steps (1 s): x = x0 + v t (60 roundings of values below 4: 1e-4 m),
    // velocities unchanged bitwise, and the rotation angle is 60 · 2 atan(h ω / 2) = 0.99998 rad
    // (first-order quaternion update: each step turns by 2 atan(hω/2) = hω − (hω)³/12): within 1e-4 rad.
    rb_world_id w = pu_make_world(false);
    rb_body_def bd = pu_body_def(RB_BODY_KINEMATIC, v3(0.0f, 2.0f, 0.0f), quat_identity(), 0.0f);
    bd.linear_velocity = v3(1.0f, 0.5f, -2.0f);
    bd.angular_velocity = v3(0.0f, 1.0f, 0.0f);
    rb_shape_def sd = rb_default_shape_def();
    rb_body_id b = pu_add_box_body(w, &bd, v3(0.5f, 0.25f, 0.5f), &sd);
    pu_step(w, 60);
    rb_vec3 p = pu_position(b), v = pu_velocity(b), om = pu_angular_velocity(b);
    assert_float_equal(p.x, 1.0f, 1e-4);
    assert_float_equal(p.y, 2.5f, 1e-4);
    assert_float_equal(p.z, -2.0f, 1e-4);
    assert_true(v.x == 1.0f && v.y == 0.5f && v.z == -2.0f);
    assert_true(om.x == 0.0f && om.y == 1.0f && om.z == 0.0f);
    double angle = quat_angle_between(quat_identity(), pu_rotation(b));
    assert_float_equal(angle, 60.0 * 2.0 * atan(0.5 * (double)PU_H), 1e-4);
    rb_destroy_world(w);
}

static void test_static_body_never_moves_even_when_hit(void **state)
{
    (void)state;
    // A static box with a 1 kg box dropped onto it from 1 m: the static body has infinite mass, so
    // its transform stays bitwise what it was created with, and its velocity stays zero.
    rb_world_id w = pu_make_world(false);
    rb_quat q = rb_quat_from_axis_angle(v3(0.0f, 1.0f, 0.0f), 0.3f);
    rb_body_def bd = pu_body_def(RB_BODY_STATIC, v3(0.0f, 1.0f, 0.0f), q, 0.0f);
    rb_shape_def sd = rb_default_shape_def();
    rb_body_id s = pu_add_box_body(w, &bd, v3(1.0f, 0.5f, 1.0f), &sd);
    rb_body_id d = pu_box(w, v3(0.2f, 3.0f, 0.0f), quat_identity(), v3(0.5f, 0.5f, 0.5f), 1.0f, 0.6f, 0.0f);
    rb_transform t0;
    RB_CHECK(rb_body_get_transform(s, &t0));
    for (int k = 0; k < 120; ++k) {
        pu_step(w, 1);
        rb_transform t;
        RB_CHECK(rb_body_get_transform(s, &t));
        assert_memory_equal(&t, &t0, sizeof t);
        rb_vec3 v = pu_velocity(s);
        assert_true(v.x == 0.0f && v.y == 0.0f && v.z == 0.0f);
    }
    // the dynamic box did land on it (1.5 + 0.5 = 2 m), so the static body was really pushed on
    assert_float_equal(pu_position(d).y, 2.0f, 0.01f);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_fall_matches_the_semi_implicit_euler_closed_form),
        cmocka_unit_test(test_free_fall_differs_from_the_parabola_by_the_first_order_error),
        cmocka_unit_test(test_projectile_keeps_its_horizontal_velocity_and_lands_at_the_predicted_range),
        cmocka_unit_test(test_body_with_gravity_scale_zero_floats),
        cmocka_unit_test(test_linear_damping_decays_speed_by_the_pade_factor_each_step),
        cmocka_unit_test(test_angular_damping_decays_spin_by_the_pade_factor_each_step),
        cmocka_unit_test(test_torque_free_asymmetric_box_keeps_its_angular_momentum),
        cmocka_unit_test(test_torque_free_asymmetric_box_never_gains_kinetic_energy),
        cmocka_unit_test(test_torque_free_asymmetric_box_loses_at_most_a_few_percent_of_its_kinetic_energy),
        cmocka_unit_test(test_sphere_spinning_about_one_axis_keeps_its_angular_velocity_exactly),
        cmocka_unit_test(test_force_at_center_gives_acceleration_f_over_m_for_one_step),
        cmocka_unit_test(test_off_center_force_produces_the_torque_r_cross_f),
        cmocka_unit_test(test_impulses_change_velocity_at_once),
        cmocka_unit_test(test_kinematic_body_moves_with_constant_velocity_and_ignores_gravity),
        cmocka_unit_test(test_static_body_never_moves_even_when_hit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
