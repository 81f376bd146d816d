// States at the edge of float (docs/limits.md, "A body whose state becomes non-finite", and
// docs/large-worlds.md, "The coordinate limit"): bodies given speeds up to 3e38 m/s and forces of
// FLT_MAX in a pile on the ground, and bodies that fall or are placed beyond 1e18 m. Every solver of the
// CPU, and the OpenCL backend's (batched, split) where it has a device: the per-element code that
// decides (core/kernels/) is theirs too.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "physics_util.h"

typedef struct setup {
    rb_backend backend;
    rb_solver solver;
} setup;

static const setup setups[] = {
    {RB_BACKEND_CPU, RB_SOLVER_SOFT},        {RB_BACKEND_CPU, RB_SOLVER_BATCHED},
    {RB_BACKEND_CPU, RB_SOLVER_SPLIT},       {RB_BACKEND_CPU, RB_SOLVER_SEQUENTIAL},
    {RB_BACKEND_OPENCL, RB_SOLVER_BATCHED},  {RB_BACKEND_OPENCL, RB_SOLVER_SPLIT},
};
#define SETUPS ((int)(sizeof setups / sizeof *setups))

// A world of setup i, or the null id where its backend has no device here.
static rb_world_id make_world(int i, rb_vec3 gravity)
{
    rb_world_def d = pu_world_def(false);
    d.backend = setups[i].backend;
    d.solver = setups[i].solver;
    d.gravity = gravity;
    rb_world_id w = rb_null_world_id;
    if (rb_create_world(&d, &w) != RB_OK) {
        if (setups[i].backend == RB_BACKEND_CPU)
            fail_msg("no CPU world: %s", rb_last_error(rb_null_world_id));
        return rb_null_world_id;
    }
    return w;
}

static const char *setup_name(int i)
{
    static char name[64];
    snprintf(name, sizeof name, "%s/%s", setups[i].backend == RB_BACKEND_CPU ? "cpu" : "opencl",
              rb_solver_name(setups[i].solver));
    return name;
}

static bool finite3(rb_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

// ---- overflowing impulses ----------------------------------------------------------------------

static uint32_t rng;
static float frand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f;
}

typedef struct pile {
    rb_world_id w;
    rb_body_id b[8];
    int n;
} pile;

// 2 to 7 spheres, boxes and capsules of 1 mg to 100 t, overlapping each other on the ground (μ = 0.6).
static bool make_pile(int i, pile *p)
{
    p->w = make_world(i, v3(0.0f, -PU_G, 0.0f));
    if ((p->w.index1 == 0))
        return false;
    pu_add_ground(p->w, 0.6f, 0.0f);
    p->n = 2 + (int)(frand() * 6.0f);
    for (int k = 0; k < p->n; ++k) {
        rb_vec3 at = v3(2.0f * frand(), 0.3f + 2.0f * frand(), 2.0f * frand());
        float mass = powf(10.0f, -3.0f + 8.0f * frand());
        int shape = (int)(frand() * 3.0f);
        float e = frand() < 0.5f ? 0.5f : 0.0f;
        p->b[k] = shape == 0   ? pu_sphere(p->w, at, 0.5f, mass, 0.6f, e)
                  : shape == 1 ? pu_box(p->w, at, quat_identity(), v3(0.5f, 0.4f, 0.3f), mass, 0.6f, 0.0f)
                               : pu_capsule(p->w, at, quat_identity(), 0.5f, 0.3f, mass, 0.6f, 0.0f);
    }
    return true;
}

// One body of the pile gets a velocity of 1e15 to 3e38 m/s (sometimes a spin and a force of up to
// FLT_MAX too); the pile is stepped.
static rb_status kick_and_step(pile *p)
{
    rb_body_id b = p->b[(int)(frand() * (float)p->n)];
    float speed = powf(10.0f, 15.0f + 23.5f * frand());
    rb_vec3 v = v3((frand() - 0.5f) * speed, (frand() - 0.5f) * speed, (frand() - 0.5f) * speed);
    RB_CHECK(rb_body_set_linear_velocity(b, v));
    if (frand() < 0.3f)
        RB_CHECK(rb_body_set_angular_velocity(b, v3_scale(v, 0.5f)));
    if (frand() < 0.2f)
        RB_CHECK(rb_body_apply_force_to_center(b, v3(0.0f, -FLT_MAX * frand(), 0.0f), true));
    return rb_world_step(p->w);
}

// Impulses that overflow in the solver make their bodies non-finite, and those are frozen (put back,
// stopped). What the contacts report of such a step is what the bodies kept: a finite impulse, or 0
// where it overflowed. Before the fix the contacts kept the NaN (seen on all four solvers).
static void test_contacts_report_finite_impulses_when_bodies_overflow(void **state)
{
    (void)state;
    for (int i = 0; i < SETUPS; ++i) {
        rng = 12345;
        int numeric = 0, contacts = 0;
        for (int trial = 0; trial < 60; ++trial) {
            pile p;
            if (!make_pile(i, &p))
                break;
            rb_world_step(p.w);
            for (int s = 0; s < 6; ++s) {
                numeric += kick_and_step(&p) == RB_ERR_NUMERIC;
                int n = 0;
                RB_CHECK(rb_world_get_contact_count(p.w, &n));
                rb_contact k[256];
                n = n < 256 ? n : 256;
                RB_CHECK(rb_world_get_contacts(p.w, 0, n, k));
                contacts += n;
                for (int c = 0; c < n; ++c)
                    if (!isfinite(k[c].normal_impulse) || !finite3(k[c].friction_impulse))
                        fail_msg("%s, pile %d, step %d: contact %d reports impulse %g, friction (%g, %g, %g)",
                                 setup_name(i), trial, s, c, k[c].normal_impulse, k[c].friction_impulse.x,
                                 k[c].friction_impulse.y, k[c].friction_impulse.z);
            }
            rb_destroy_world(p.w);
        }
        print_message("%s: %d steps froze bodies, %d contacts checked\n", setup_name(i), numeric, contacts);
        if (contacts > 0) // the backend ran: then the case under test did happen, often
            assert_true(numeric >= 100 && contacts >= 100);
    }
}

// A step that returns RB_OK leaves every body finite; one whose solve made a body non-finite returns
// RB_ERR_NUMERIC with the body frozen at a finite pose. Before the fix the sequential solver, whose
// solve comes after its position update, returned RB_OK with NaN velocities (frozen only a step later).
static void test_no_step_returns_ok_with_a_non_finite_body(void **state)
{
    (void)state;
    for (int i = 0; i < SETUPS; ++i) {
        rng = 777;
        for (int trial = 0; trial < 60; ++trial) {
            pile p;
            if (!make_pile(i, &p))
                break;
            rb_world_step(p.w);
            for (int s = 0; s < 6; ++s) {
                rb_status st = kick_and_step(&p);
                for (int k = 0; k < p.n; ++k) {
                    rb_vec3 x = pu_position(p.b[k]), v = pu_velocity(p.b[k]), w = pu_angular_velocity(p.b[k]);
                    if (!finite3(x) || !finite3(v) || !finite3(w))
                        fail_msg("%s, pile %d, step %d (%s): body %d at (%g, %g, %g), v (%g, %g, %g), w (%g, %g, %g)",
                                 setup_name(i), trial, s, rb_status_string(st), k, x.x, x.y, x.z, v.x, v.y, v.z,
                                 w.x, w.y, w.z);
                }
            }
            rb_destroy_world(p.w);
        }
    }
}

// ---- the coordinate limit ------------------------------------------------------------------------

// Every contact's normal is a unit vector and its depth finite.
static void assert_contacts_sound(rb_world_id w, const char *what)
{
    int n = 0;
    RB_CHECK(rb_world_get_contact_count(w, &n));
    rb_contact k[64];
    n = n < 64 ? n : 64;
    RB_CHECK(rb_world_get_contacts(w, 0, n, k));
    for (int c = 0; c < n; ++c)
        if (!(fabsf(v3_len(k[c].normal) - 1.0f) < 1e-4f) || !isfinite(k[c].depth))
            fail_msg("%s: contact %d has normal (%g, %g, %g), depth %g", what, c, k[c].normal.x, k[c].normal.y,
                     k[c].normal.z, k[c].depth);
}

// The fuzzer's case: gravity of -1e37 m/s² pulls a box down from the origin, where a capsule stays
// (kinematic). After one step of 1/60 s it would be at -g h² = -2.8e33 m, beyond the 1e18 m within
// which squared distances fit in a float: it is frozen at its pose before the step (y = 0.. within
// range), counted, and the step says RB_ERR_NUMERIC; its contacts with the capsule keep unit normals.
// Before the fix it fell on to -3.8e35 m in three steps and got a contact with the capsule of normal
// (0, 2.05e16, 0) and depth -1.8e19 m.
static void test_body_falling_past_1e18_m_is_frozen_within_range(void **state)
{
    (void)state;
    for (int i = 0; i < SETUPS; ++i) {
        rb_world_id w = make_world(i, v3(0.0f, -1e37f, 0.0f));
        if (w.index1 == 0)
            continue;
        rb_body_def kd = pu_body_def(RB_BODY_KINEMATIC, v3(0.0f, 0.0f, 0.0f), quat_identity(), 0.0f);
        rb_shape_def sd = pu_material(0.6f, 0.0f);
        pu_add_capsule_body(w, &kd, 0.5f, 0.25f, &sd);
        rb_body_id box = pu_box(w, v3(0.0f, -2.0f, 0.0f), quat_identity(), v3(0.5f, 0.5f, 0.5f), 1.0f, 0.6f, 0.0f);
        rb_status first = RB_OK;
        int s = 0;
        for (; s < 5 && first == RB_OK; ++s)
            first = rb_world_step(w);
        assert_int_equal(first, RB_ERR_NUMERIC);
        rb_counters c;
        RB_CHECK(rb_world_get_counters(w, &c));
        assert_int_equal(c.frozen_bodies, 1);
        rb_vec3 at = pu_position(box), v = pu_velocity(box);
        if (!(fabsf(at.y) <= 1e18f))
            fail_msg("%s: the box was frozen at y = %g m, beyond 1e18 m", setup_name(i), at.y);
        assert_float_equal(v.y, 0.0f, 0.0f);
        assert_contacts_sound(w, setup_name(i));
        // it stays there, out of the simulation, and the world steps on
        for (int k = 0; k < 5; ++k) {
            assert_int_equal(rb_world_step(w), RB_OK);
            assert_contacts_sound(w, setup_name(i));
        }
        rb_vec3 later = pu_position(box);
        assert_memory_equal(&later, &at, sizeof at);
        rb_destroy_world(w);
    }
}

// Static shapes at the edge of the simulated coordinates (a box 1e18 m below the origin, a capsule and a
// sphere at (0, 1e18, 9e17) m; placing a body beyond 1e18 m is refused, test_large_worlds.c), and a
// ball at the origin shot down at 3e37 m/s, whose bounds, grown by its motion in a step (5e35 m), reach
// the box. Before the fix, with the box at 4e35 m (then accepted), the ball got a contact with it of
// normal length 4e15 (and a depth of -1.8e19 m). Contacts stay sound (unit normals, finite depths and
// impulses: a speculative contact 1e18 m deep is one) whatever the shapes; the ball is frozen (it would
// leave the range) and a ball resting on the ground keeps its contact.
static void test_shapes_at_the_coordinate_limit_get_sound_contacts(void **state)
{
    (void)state;
    for (int i = 0; i < SETUPS; ++i) {
        rb_world_id w = make_world(i, v3(0.0f, -PU_G, 0.0f));
        if (w.index1 == 0)
            continue;
        pu_add_ground(w, 0.6f, 0.0f);
        rb_shape_def sd = pu_material(0.6f, 0.0f);
        rb_body_def far_box = pu_body_def(RB_BODY_STATIC, v3(0.0f, -1e18f, 0.0f), quat_identity(), 0.0f);
        pu_add_box_body(w, &far_box, v3(1.0f, 1.0f, 1.0f), &sd);
        rb_body_def far_capsule = pu_body_def(RB_BODY_STATIC, v3(0.0f, 1e18f, 9e17f), quat_identity(), 0.0f);
        pu_add_capsule_body(w, &far_capsule, 1.0f, 1.0f, &sd);
        rb_body_def far_sphere = pu_body_def(RB_BODY_STATIC, v3(0.0f, 1e18f, 9e17f), quat_identity(), 0.0f);
        pu_add_sphere_body(w, &far_sphere, 1.0f, &sd);
        pu_sphere(w, v3(5.0f, 0.5f, 0.0f), 0.5f, 1.0f, 0.6f, 0.0f);
        rb_body_id shot = pu_sphere(w, v3(0.0f, 0.0f, 0.0f), 0.5f, 1.0f, 0.6f, 0.0f);
        rb_world_step(w);
        RB_CHECK(rb_body_set_linear_velocity(shot, v3(0.0f, -3e37f, 0.0f)));
        for (int step = 0; step < 3; ++step) {
            rb_world_step(w);
            int n = 0;
            RB_CHECK(rb_world_get_contact_count(w, &n));
            rb_contact k[16];
            n = n < 16 ? n : 16;
            RB_CHECK(rb_world_get_contacts(w, 0, n, k));
            int ground = 0;
            for (int c = 0; c < n; ++c) {
                rb_transform xa, xb;
                RB_CHECK(rb_body_get_transform(k[c].body_a, &xa));
                RB_CHECK(rb_body_get_transform(k[c].body_b, &xb));
                // a speculative contact across 1e18 m is sound when its normal is unit and its depth finite
                ground += xa.p.x == 5.0f || xb.p.x == 5.0f;
            }
            assert_contacts_sound(w, setup_name(i));
            assert_true(ground >= 1);
        }
        rb_vec3 at = pu_position(shot);
        if (!(fabsf(at.y) <= 1e18f))
            fail_msg("%s: the shot ball is at y = %g m", setup_name(i), at.y);
        rb_destroy_world(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contacts_report_finite_impulses_when_bodies_overflow),
        cmocka_unit_test(test_no_step_returns_ok_with_a_non_finite_body),
        cmocka_unit_test(test_body_falling_past_1e18_m_is_frozen_within_range),
        cmocka_unit_test(test_shapes_at_the_coordinate_limit_get_sound_contacts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
