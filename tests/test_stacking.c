// Resting contact and stacking: bodies at rest stay at rest (no drift, no rotation, no sinking),
// the contact impulses carry exactly the weight, and the standard pyramid and pile stand.
// Sleeping is off in every test here, so the solver itself must hold the bodies still.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "physics_util.h"

static void test_single_box_resting_on_the_ground_does_not_drift_or_rotate(void **state)
{
    (void)state;
    // A 1 kg unit cube placed exactly on the ground (centre y = 0.5). Over 600 steps (10 s):
    // |Δx|, |Δz| < 1 mm, |Δy| < 1 mm (the resting penetration is at most the slop, 0.5 mm),
    // rotation < 1e-3 rad.
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id b = pu_box(w, v3(0.0f, 0.5f, 0.0f), quat_identity(), v3(0.5f, 0.5f, 0.5f), 1.0f, 0.6f, 0.0f);
    rb_vec3 p0 = pu_position(b);
    rb_quat q0 = pu_rotation(b);
    double worst_xz = 0.0, worst_y = 0.0, worst_angle = 0.0;
    for (int k = 0; k < 600; ++k) {
        pu_step(w, 1);
        rb_vec3 p = pu_position(b);
        double xz = hypot(p.x - p0.x, p.z - p0.z), dy = fabs(p.y - p0.y);
        double angle = quat_angle_between(q0, pu_rotation(b));
        worst_xz = xz > worst_xz ? xz : worst_xz;
        worst_y = dy > worst_y ? dy : worst_y;
        worst_angle = angle > worst_angle ? angle : worst_angle;
    }
    print_message("resting box: max |dxz| %.3g m, |dy| %.3g m, angle %.3g rad\n", worst_xz, worst_y, worst_angle);
    assert_true(worst_xz < 1e-3);
    assert_true(worst_y < 1e-3);
    assert_true(worst_angle < 1e-3);
    rb_destroy_world(w);
}

static void test_contact_impulses_under_a_resting_box_carry_its_weight(void **state)
{
    (void)state;
    // At rest the ground must cancel gravity's impulse each substep: Σ λn = m g h_s = 2 · 9.81 / 60
    // = 0.327 N·s for a 2 kg box (h_s = 1/60; a third with 3 substeps), within 1% (converged,
    // warm-started solver), after 1 s to settle. Friction carries nothing: Σ |λt| < 1e-3 of that.
    // The sequential solver without its gravity damping (with it, below).
    rb_world_id w = pu_make_world_undamped(false);
    pu_add_ground(w, 0.6f, 0.0f);
    pu_box(w, v3(0.0f, 0.5f, 0.0f), quat_identity(), v3(0.5f, 0.5f, 0.5f), 2.0f, 0.6f, 0.0f);
    pu_step(w, 60);
    const double hs = (double)PU_H / pu_substeps(w);
    for (int k = 0; k < 10; ++k) {
        pu_step(w, 1);
        int n;
        rb_contact *c = pu_contacts(w, &n);
        double sum = 0.0, fr = 0.0;
        for (int i = 0; i < n; ++i) {
            sum += c[i].normal_impulse;
            fr += sqrt((double)c[i].friction_impulse.x * c[i].friction_impulse.x +
                       (double)c[i].friction_impulse.z * c[i].friction_impulse.z +
                       (double)c[i].friction_impulse.y * c[i].friction_impulse.y);
        }
        free(c);
        double weight = 2.0 * PU_G * hs;
        assert_int_equal(n, 4);
        if (pu_rel_err(sum, weight) > 0.01)
            fail_msg("step %d: sum of normal impulses %.6f N s, expected m g h = %.6f", 61 + k, sum, weight);
        assert_true(fr < 1e-3 * weight);
    }
    rb_destroy_world(w);
}

static void test_gravity_damping_leaves_a_resting_box_that_part_of_its_weight(void **state)
{
    (void)state;
    // The sequential solver's gravity damping (Schornbaum 2010 §3.8) gives a slow body resting on something
    // only (1 − d) of gravity, so its contacts carry (1 − d) m g h_s: with the default d = 0.7, 30%
    // (docs/solver-sequential.md; applications reading contact forces set d = 0 or divide by 1 − d).
    // Batched has no damping: the whole weight.
    rb_world_id w = pu_make_world(false);
    rb_world_def d;
    RB_CHECK(rb_world_get_def(w, &d));
    double carried = d.solver == RB_SOLVER_SEQUENTIAL ? 1.0 - d.sequential.gravity_damping : 1.0;
    pu_add_ground(w, 0.6f, 0.0f);
    pu_box(w, v3(0.0f, 0.5f, 0.0f), quat_identity(), v3(0.5f, 0.5f, 0.5f), 2.0f, 0.6f, 0.0f);
    pu_step(w, 60);
    int n;
    rb_contact *c = pu_contacts(w, &n);
    double sum = 0.0;
    for (int i = 0; i < n; ++i)
        sum += c[i].normal_impulse;
    free(c);
    double weight = 2.0 * PU_G * PU_H / pu_substeps(w);
    print_message("resting box: contacts carry %.4f of its weight per substep (expected %.2f)\n", sum / weight, carried);
    assert_true(pu_rel_err(sum, carried * weight) < 0.01);
    rb_destroy_world(w);
}

static void test_capsule_lying_on_the_ground_stays_put_and_does_not_roll(void **state)
{
    (void)state;
    // A capsule (half length 0.5, radius 0.25, 1 kg) lying along x (turned 90° about z), axis at
    // y = 0.25. It is neutrally stable for rolling about its axis, so nothing may start it:
    // over 600 steps, |Δx|, |Δz| < 1 mm, |Δy| < 1 mm, rotation < 1e-3 rad, |ω| < 1e-3 rad/s.
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    rb_quat q = rb_quat_from_axis_angle(v3(0.0f, 0.0f, 1.0f), (float)(PU_PI / 2));
    rb_body_id b = pu_capsule(w, v3(0.0f, 0.25f, 0.0f), q, 0.5f, 0.25f, 1.0f, 0.6f, 0.0f);
    rb_vec3 p0 = pu_position(b);
    rb_quat q0 = pu_rotation(b);
    pu_step(w, 600);
    rb_vec3 p = pu_position(b);
    double angle = quat_angle_between(q0, pu_rotation(b));
    print_message("resting capsule: dx %.3g dy %.3g dz %.3g m, angle %.3g rad, |w| %.3g rad/s\n", p.x - p0.x,
                  p.y - p0.y, p.z - p0.z, angle, v3_len(pu_angular_velocity(b)));
    assert_true(fabsf(p.x - p0.x) < 1e-3f && fabsf(p.z - p0.z) < 1e-3f);
    assert_true(fabsf(p.y - p0.y) < 1e-3f);
    assert_true(angle < 1e-3);
    assert_true(v3_len(pu_angular_velocity(b)) < 1e-3f);
    rb_destroy_world(w);
}

static void test_five_stacked_boxes_stand_for_ten_seconds(void **state)
{
    (void)state;
    // Five 1 kg unit cubes, centres at y = 0.5 + k, touching exactly. After 600 steps the top cube
    // has moved less than 1 cm (each of 5 contact layers may settle by at most the slop, 0.5 mm:
    // 2.5 mm in y; anything more is drift), and every cube stays within 1 cm of its start.
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id b[5];
    rb_vec3 p0[5];
    for (int k = 0; k < 5; ++k) {
        b[k] = pu_box(w, v3(0.0f, 0.5f + (float)k, 0.0f), quat_identity(), v3(0.5f, 0.5f, 0.5f), 1.0f, 0.6f, 0.0f);
        p0[k] = pu_position(b[k]);
    }
    pu_step(w, 600);
    double worst = 0.0;
    for (int k = 0; k < 5; ++k) {
        double d = v3_dist(pu_position(b[k]), p0[k]);
        worst = d > worst ? d : worst;
    }
    print_message("stack of 5: top moved %.3g m, max drift %.3g m\n", v3_dist(pu_position(b[4]), p0[4]), worst);
    assert_true(v3_dist(pu_position(b[4]), p0[4]) < 0.01f);
    assert_true(worst < 0.01);
    rb_destroy_world(w);
}

// A standard scene of `bodies` dynamic bodies stepped 600 times with sleeping off: the largest
// distance any body moved, and the last body's (the top's) height before and after.
typedef struct scene_drift {
    double max_drift;
    float top_y0, top_y;
} scene_drift;

static scene_drift standard_scene_drift(const char *scene, int bodies)
{
    rb_world_def d = pu_world_def(false);
    rb_world_id w = pu_make_world_from(&d);
    RB_CHECK(rb_build_standard_scene(w, scene, 1));
    int n;
    int *slots = pu_dynamic_slots(w, &n);
    assert_int_equal(n, bodies);
    int total = pu_body_slots(w);
    rb_transform *t0 = calloc((size_t)total, sizeof *t0), *t1 = calloc((size_t)total, sizeof *t1);
    assert_non_null(t0);
    assert_non_null(t1);
    RB_CHECK(rb_world_get_transforms(w, 0, total, t0));
    pu_step(w, 600);
    RB_CHECK(rb_world_get_transforms(w, 0, total, t1));
    scene_drift r = {0.0, t0[slots[n - 1]].p.y, t1[slots[n - 1]].p.y};
    for (int i = 0; i < n; ++i) {
        double dd = v3_dist(t1[slots[i]].p, t0[slots[i]].p);
        r.max_drift = dd > r.max_drift ? dd : r.max_drift;
    }
    free(t0);
    free(t1);
    free(slots);
    rb_destroy_world(w);
    return r;
}

static void test_standard_pyramid_stands_for_ten_seconds(void **state)
{
    (void)state;
    // bench-scenes.md "pyramid": 385 unit cubes in 10 layers, sleeping off. Quality target:
    // max_drift (largest distance of any cube from its start) ≤ 1 cm after 600 steps, and the top
    // cube (the last body) stays at y = 9.5 within 1 cm.
    scene_drift r = standard_scene_drift("pyramid", 385);
    print_message("pyramid: max_drift %.4g m, top_y %.5f m (start %.5f)\n", r.max_drift, r.top_y, r.top_y0);
    assert_float_equal(r.top_y0, 9.5f, 1e-6f);
    assert_true(r.max_drift <= 0.01);
    assert_float_equal(r.top_y, 9.5f, 0.01f);
}

static void test_standard_stack_of_twenty_stands_for_ten_seconds_without_walking(void **state)
{
    (void)state;
    // bench-scenes.md "stack": 20 unit cubes in one column, sleeping off. After 600 steps the top cube
    // is at 19.5 m within 5 cm (the figure: top_y >= 19.45) and no cube has moved more than
    // 2 cm. A face on a face lies near a tie between clip features; a narrow phase that flips
    // between them from step to step rocked the column, which walked 9 cm in 10 s on the default
    // solver (0.2 mm since manifolds are reused while the boxes hardly move).
    scene_drift r = standard_scene_drift("stack", 20);
    print_message("stack of 20: max_drift %.4g m, top_y %.5f m\n", r.max_drift, r.top_y);
    assert_true(r.top_y >= 19.45f);
    assert_true(r.max_drift <= 0.02);
}

static void test_standard_pile_keeps_every_sphere_in_the_pen_without_deep_overlap(void **state)
{
    (void)state;
    // "pile:8": 8 × 8 × 20 = 1280 spheres of radius 0.5 dropped into a pen with inner faces at
    // ±12·8/20 = ±4.8 m, 300 steps (5 s: the spheres have fallen and mostly settled).
    // bench-scenes.md quality: escaped = spheres with |x| > 4.8, |z| > 4.8, y < 0 or non-finite: 0.
    // Largest sphere–sphere overlap (1 − distance between centres) ≤ 2 cm, and no sphere more than
    // 2 cm below the ground (y ≥ 0.5 − 0.02). All pairs are checked (n²/2 = 8e5 distances).
    rb_world_def d = pu_world_def(false);
    rb_world_id w = pu_make_world_from(&d);
    RB_CHECK(rb_build_standard_scene(w, "pile:8", 1));
    int n;
    int *slots = pu_dynamic_slots(w, &n);
    assert_int_equal(n, 1280);
    pu_step(w, 300);
    int total = pu_body_slots(w);
    rb_transform *t = calloc((size_t)total, sizeof *t);
    assert_non_null(t);
    RB_CHECK(rb_world_get_transforms(w, 0, total, t));
    int escaped = 0;
    double overlap = 0.0, ground = 0.0;
    for (int i = 0; i < n; ++i) {
        rb_vec3 p = t[slots[i]].p;
        if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z) || fabsf(p.x) > 4.8f || fabsf(p.z) > 4.8f || p.y < 0.0f)
            ++escaped;
        double g = 0.5 - p.y;
        ground = g > ground ? g : ground;
        for (int j = i + 1; j < n; ++j) {
            rb_vec3 q = t[slots[j]].p;
            double dx = (double)p.x - q.x, dy = (double)p.y - q.y, dz = (double)p.z - q.z;
            double d2 = dx * dx + dy * dy + dz * dz;
            if (d2 < 1.0) {
                double o = 1.0 - sqrt(d2);
                overlap = o > overlap ? o : overlap;
            }
        }
    }
    print_message("pile:8 after 300 steps: escaped %d, max overlap %.4f m, max ground penetration %.4f m\n", escaped,
                  overlap, ground);
    assert_int_equal(escaped, 0);
    assert_true(overlap <= 0.02);
    assert_true(ground <= 0.02);
    free(t);
    free(slots);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_box_resting_on_the_ground_does_not_drift_or_rotate),
        cmocka_unit_test(test_contact_impulses_under_a_resting_box_carry_its_weight),
        cmocka_unit_test(test_gravity_damping_leaves_a_resting_box_that_part_of_its_weight),
        cmocka_unit_test(test_capsule_lying_on_the_ground_stays_put_and_does_not_roll),
        cmocka_unit_test(test_five_stacked_boxes_stand_for_ten_seconds),
        cmocka_unit_test(test_standard_pyramid_stands_for_ten_seconds),
        cmocka_unit_test(test_standard_stack_of_twenty_stands_for_ten_seconds_without_walking),
        cmocka_unit_test(test_standard_pile_keeps_every_sphere_in_the_pen_without_deep_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
