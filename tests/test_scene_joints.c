// Joints in scene files (docs/scene-format.md, "joints", "ragdoll", "chain"): what a file's joints do
// (a hinge pendulum's period, a motor's speed, a spring's period and rest length, a rope's reach, a
// joint that breaks, joined bodies that collide only when asked), the exact bodies and joints of the
// ragdoll and chain generators (those of bench/compare/joint_scenes.h, which the peer engines run),
// the data files' joints holding, and bad joints failing with FILE:LINE:COLUMN and the reason while
// the world stays exactly as it was.
#define _POSIX_C_SOURCE 200809L // opendir

#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crossings.h"

#include "rubble.h"

#include "scene_test_util.h"

#include "../bench/compare/joint_scenes.h"

// ---- helpers ----

#define G 9.81
#define H (1.0 / 60.0)

static void step(rb_world_id w, int n)
{
    for (int i = 0; i < n; ++i)
        assert_int_equal(rb_world_step(w), RB_OK);
}

static rb_body_id body_at(rb_world_id w, int slot)
{
    rb_body_id id;
    assert_int_equal(rb_world_get_body_id(w, slot, &id), RB_OK);
    return id;
}

static int body_count(rb_world_id w)
{
    rb_counters c;
    assert_int_equal(rb_world_get_counters(w, &c), RB_OK);
    return c.bodies;
}

static int joint_count(rb_world_id w)
{
    int n;
    assert_int_equal(rb_world_get_joint_count(w, &n), RB_OK);
    return n;
}

// The world's joints in slot order (at most 2000).
static int joints_of(rb_world_id w, rb_joint_id *out)
{
    int n;
    assert_int_equal(rb_world_get_joints(w, out, 2000, &n), RB_OK);
    assert_true(n <= 2000);
    return n;
}

// The slot of a joint's body (-1: the static world).
static int slot_of(rb_world_id w, rb_body_id b)
{
    if (!rb_body_is_valid(b))
        return -1;
    rb_counters c;
    assert_int_equal(rb_world_get_counters(w, &c), RB_OK);
    for (int i = 0; i < c.body_slots; ++i) {
        rb_body_id id;
        if (rb_world_get_body_id(w, i, &id) == RB_OK && rb_body_equal(id, b))
            return i;
    }
    fail_msg("body not in the world");
    return -2;
}

static void joint_slots(rb_world_id w, rb_joint_id j, int *a, int *b)
{
    rb_body_id ba, bb;
    assert_int_equal(rb_joint_get_bodies(j, &ba, &bb), RB_OK);
    *a = slot_of(w, ba);
    *b = slot_of(w, bb);
}

static rb_vec3 position(rb_body_id b)
{
    rb_vec3 p;
    assert_int_equal(rb_body_get_position(b, &p), RB_OK);
    return p;
}

static double dist(rb_vec3 a, rb_vec3 b)
{
    double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static float coordinate(rb_joint_id j)
{
    float c;
    assert_int_equal(rb_joint_get_coordinate(j, &c), RB_OK);
    return c;
}

// R(q) v, rubble's quaternion (x, y, z, w).
static rb_vec3 rotate(rb_quat q, rb_vec3 v)
{
    scn_vec3 r = scn_rotate(scn_q(q.w, q.x, q.y, q.z), scn_v3(v.x, v.y, v.z));
    return (rb_vec3){(float)r.x, (float)r.y, (float)r.z};
}

static void assert_vec_near_at(rb_vec3 a, double x, double y, double z, double tol, const char *file, int line)
{
    if (!(fabs(a.x - x) <= tol && fabs(a.y - y) <= tol && fabs(a.z - z) <= tol))
        fail_msg("%s:%d: got (%.7g, %.7g, %.7g), expected (%.7g, %.7g, %.7g) (tolerance %g)", file, line, a.x, a.y, a.z,
                 x, y, z, tol);
}

#define assert_vec_near(a, x, y, z, tol) assert_vec_near_at((a), (x), (y), (z), (tol), __FILE__, __LINE__)


// ---- what a file's joints do ----

// A 0.1 m, 1 kg ball on a hinge about z, 1 m below a pivot in the static world, released 0.05 rad out:
// T = 2π √(I_pivot / (m g d)) with I_pivot = 0.4 m r² + m d², 2.0101 s; the hinge angle (B relative to
// the world, 0 at creation) swings between 0 and -2 θ0.
static void test_hinge_pendulum_from_a_file_has_the_period_of_a_physical_pendulum(void **state)
{
    (void)state;
    double th0 = 0.05, d = 1.0, r = 0.1;
    char text[1024];
    snprintf(text, sizeof text,
             "rubble-scene: 1\n"
             "world: {sleep: false}\n"
             "bodies:\n"
             "  - name: bob\n"
             "    position: [%.9g, %.9g, 0]\n"
             "    mass: 1\n"
             "    shapes: [{sphere: {radius: %g}}]\n"
             "joints:\n"
             "  - type: hinge\n"
             "    body_b: bob\n"
             "    anchor: [0, 10, 0]\n"
             "    axis: [0, 0, 1]\n",
             d * sin(th0), 10.0 - d * cos(th0), r);
    rb_world_id w = new_world();
    load_ok(w, text);
    rb_joint_id j[4];
    assert_int_equal(joints_of(w, j), 1);
    rb_joint_type type;
    assert_int_equal(rb_joint_get_type(j[0], &type), RB_OK);
    assert_int_equal(type, RB_JOINT_HINGE);
    int a, b;
    joint_slots(w, j[0], &a, &b);
    assert_int_equal(a, -1);
    assert_int_equal(b, 0);
    rb_body_id bob = body_at(w, 0);
    crossings c = {0, 0, position(bob).x, 0};
    float lowest = 0.0f;
    for (int i = 1; i <= 600; ++i) {
        step(w, 1);
        crossing_add(&c, i * H, H, position(bob).x);
        lowest = fminf(lowest, coordinate(j[0]));
    }
    double expected = 2.0 * PI * sqrt((0.4 * r * r + d * d) / (G * d));
    print_message("file pendulum: period %.4f s, expected %.4f s; lowest hinge angle %.4f rad, expected %.4f\n",
                  crossing_period(&c), expected, lowest, -2.0 * th0);
    assert_true(c.count >= 4);
    assert_near(crossing_period(&c), expected, 0.01 * expected);
    assert_near(lowest, -2.0 * th0, 0.05 * 2.0 * th0);
    rb_destroy_world(w);
}

// A hinge about y (gravity has no lever on it) with `motor_speed: 2` and `max_motor_force: 50` turns a
// 1 kg bar at 2 rad/s; `max_motor_force: 0` is a motor without strength: the bar stays put.
static void test_hinge_motor_keys_drive_the_joint(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "bodies:\n"
               "  - {name: bar, position: [0.5, 2, 0], mass: 1, shapes: [{box: {half_extents: [0.5, 0.05, 0.05]}}]}\n"
               "  - {name: idle, position: [0.5, 2, 3], mass: 1, shapes: [{box: {half_extents: [0.5, 0.05, 0.05]}}]}\n"
               "joints:\n"
               "  - {type: hinge, body_b: bar, anchor: [0, 2, 0], axis: [0, 1, 0], motor_speed: 2,\n"
               "     max_motor_force: 50}\n"
               "  - {type: hinge, body_b: idle, anchor: [0, 2, 3], axis: [0, 1, 0], max_motor_force: 0}\n");
    step(w, 60);
    rb_vec3 om, idle;
    assert_int_equal(rb_body_get_angular_velocity(body_at(w, 0), &om), RB_OK);
    assert_int_equal(rb_body_get_angular_velocity(body_at(w, 1), &idle), RB_OK);
    print_message("motor from a file: %.4f rad/s about y (2 asked); without strength %.2g rad/s\n", om.y, idle.y);
    assert_near(om.y, 2.0, 0.02);
    assert_near(idle.y, 0.0, 1e-6);
    rb_destroy_world(w);
}

// Without gravity, a 2 kg ball on a spring joint to the world, rest length 1 m, let go 0.2 m long: it
// swings about 1 m with T = 2π √(m / k), 0.8886 s for `stiffness: 100`, and with the period of
// `hertz: 2` (0.5 s) in the other form.
static void test_spring_keys_set_the_period_and_the_rest_length(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "world: {gravity: [0, 0, 0], sleep: false}\n"
               "bodies:\n"
               "  - {name: a, position: [1.2, 0, 0], mass: 2, shapes: [{sphere: {radius: 0.1}}]}\n"
               "  - {name: b, position: [1.2, 0, 5], mass: 2, shapes: [{sphere: {radius: 0.1}}]}\n"
               "joints:\n"
               "  - {type: spring, body_b: a, anchor: [0, 0, 0], anchor_b: [1.2, 0, 0], length: 1, stiffness: 100}\n"
               "  - {type: spring, body_b: b, anchor: [0, 0, 5], anchor_b: [1.2, 0, 5], length: 1, hertz: 2,\n"
               "     damping_ratio: 0}\n");
    rb_joint_id j[4];
    assert_int_equal(joints_of(w, j), 2);
    crossings ca = {0, 0, 0.2, 0}, cb = {0, 0, 0.2, 0};
    double lo = 10.0, hi = 0.0;
    for (int i = 1; i <= 240; ++i) {
        step(w, 1);
        // upward crossings of 1 - x: the ball passes the rest length going in
        crossing_add(&ca, i * H, H, 1.0 - position(body_at(w, 0)).x);
        crossing_add(&cb, i * H, H, 1.0 - position(body_at(w, 1)).x);
        lo = fmin(lo, coordinate(j[0]));
        hi = fmax(hi, coordinate(j[0]));
    }
    double ta = 2.0 * PI * sqrt(2.0 / 100.0);
    print_message("springs from a file: periods %.4f s (expected %.4f) and %.4f s (expected 0.5); length swings "
                  "%.3f to %.3f m about 1\n", crossing_period(&ca), ta, crossing_period(&cb), lo, hi);
    assert_near(crossing_period(&ca), ta, 0.03 * ta);
    assert_near(crossing_period(&cb), 0.5, 0.03 * 0.5);
    assert_near(0.5 * (lo + hi), 1.0, 0.02);
    assert_near(hi, 1.2, 0.02);
    rb_destroy_world(w);
}

// A 1 kg ball hung on a rope (a distance joint with `limits: [0, 2]`) 1 m below its hook, dropped: it
// falls freely until the rope is 2 m long and stays within it. A rod (`length: 1`, no limits) keeps
// 1 m. A joint with `break_force: 1` under a 9.81 N load breaks in its first step.
static void test_distance_keys_make_a_rope_a_rod_and_a_joint_that_breaks(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "world: {sleep: false}\n"
               "bodies:\n"
               "  - {name: on rope, position: [0, 9, 0], mass: 1, shapes: [{sphere: {radius: 0.1}}]}\n"
               "  - {name: on rod, position: [3, 9, 0], mass: 1, shapes: [{sphere: {radius: 0.1}}]}\n"
               "  - {name: weak, position: [6, 9, 0], mass: 1, shapes: [{sphere: {radius: 0.1}}]}\n"
               "joints:\n"
               "  - {type: distance, body_b: on rope, anchor: [0, 10, 0], anchor_b: [0, 9, 0], limits: [0, 2]}\n"
               "  - {type: distance, body_b: on rod, anchor: [3, 10, 0], anchor_b: [3, 9, 0], length: 1}\n"
               "  - {type: ball, body_b: weak, anchor: [6, 10, 0], anchor_b: [6, 9, 0], break_force: 1}\n");
    rb_joint_id j[4];
    assert_int_equal(joints_of(w, j), 3);
    bool enabled;
    float lower, upper;
    assert_int_equal(rb_joint_get_limits(j[0], &enabled, &lower, &upper), RB_OK);
    assert_true(enabled && lower == 0.0f && upper == 2.0f);
    assert_int_equal(rb_joint_get_limits(j[1], &enabled, NULL, NULL), RB_OK);
    assert_false(enabled);
    // free fall of 1 m takes √(2/g) = 0.45 s: before that the rope is slack
    step(w, 20);
    assert_near(position(body_at(w, 0)).y, 9.0 - 0.5 * G * (20 * H) * (20 * H), 0.03);
    float longest = 0.0f, rod_error = 0.0f;
    for (int i = 0; i < 100; ++i) {
        step(w, 1);
        longest = fmaxf(longest, coordinate(j[0]));
        rod_error = fmaxf(rod_error, fabsf(coordinate(j[1]) - 1.0f));
    }
    bool broken;
    assert_int_equal(rb_joint_is_broken(j[2], &broken), RB_OK);
    print_message("rope: longest %.4f m (2 allowed); rod within %.2e m of 1 m; the weak joint broke: %d; the ball "
                  "on it fell to %.2f m\n", longest, rod_error, broken, position(body_at(w, 2)).y);
    assert_true(longest > 1.98f && longest < 2.02f);
    assert_true(rod_error < 0.01f);
    assert_true(broken);
    assert_true(position(body_at(w, 2)).y < 0.0f); // it fell freely
    rb_destroy_world(w);
}

// A ball dropped onto the static slab it is tied to (a loose rope from the slab's edge): with
// `collide_connected: true` it lands on the slab; by default the pair does not collide and it falls
// through.
static void test_collide_connected_lets_the_joined_bodies_collide(void **state)
{
    (void)state;
    for (int collide = 0; collide < 2; ++collide) {
        char text[1024];
        snprintf(text, sizeof text,
                 "rubble-scene: 1\n"
                 "bodies:\n"
                 "  - {name: slab, type: static, shapes: [{box: {half_extents: [2, 0.1, 2]}}]}\n"
                 "  - {name: ball, position: [0, 1, 0], shapes: [{sphere: {radius: 0.2}}]}\n"
                 "joints:\n"
                 "  - {type: distance, body_a: slab, body_b: ball, anchor: [2, 0, 0], anchor_b: [0, 1, 0],\n"
                 "     limits: [0, 10]%s}\n",
                 collide ? ", collide_connected: true" : "");
        rb_world_id w = new_world();
        load_ok(w, text);
        step(w, 90);
        float y = position(body_at(w, 1)).y;
        if (collide)
            assert_near(y, 0.3, 0.01); // resting on the slab's top face, y = 0.1
        else
            assert_true(y < -1.0f);
        rb_destroy_world(w);
    }
}

// Every type with the keys it takes reaches rb_create_joint: types, bodies by name (and `world`),
// anchors, limits and cone spans as given; listed joints come before the generators' joints.
static void test_joint_keys_reach_the_created_joints(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "bodies:\n"
               "  - {name: base, type: static, position: [0, 5, 0], shapes: [{box: {half_extents: [1, 0.1, 1]}}]}\n"
               "  - {name: a, position: [0, 3, 0], shapes: [{sphere: {radius: 0.2}}]}\n"
               "  - {name: b, position: [2, 3, 0], shapes: [{box: {half_extents: [0.2, 0.2, 0.2]}}]}\n"
               "  - {position: [9, 9, 9], shapes: [{sphere: {radius: 0.2}}]}\n" // unnamed: no joint can name it
               "joints:\n"
               "  - {type: ball, body_a: base, body_b: a, anchor: [0, 4, 0]}\n"
               "  - {type: hinge, body_a: a, body_b: b, anchor: [1, 3, 0], axis: [0, 0, 2], lower: -0.5, upper: 1}\n"
               "  - {type: cone_twist, body_a: world, body_b: b, anchor: [2, 4, 0], axis: [0, -1, 0],\n"
               "     reference_axis: [1, 0, 0], swing_span1: 0.3, swing_span2: 0.4, twist_span: 0}\n"
               "  - {type: fixed, body_a: a, body_b: b, anchor: [1, 3, 0]}\n"
               "  - {type: distance, body_a: base, body_b: b, anchor: [2, 5, 0], anchor_b: [2, 3.2, 0],\n"
               "     hertz: 3, damping_ratio: 0.5, limits: [1, 2]}\n"
               "  - {type: spring, body_b: a, anchor: [0, 0, 0], anchor_b: [0, 3, 0], stiffness: 10, damping: 1}\n"
               "  - {type: slider, body_b: b, anchor: [2, 3, 0], axis: [1, 0, 0], limits: [-0.25, 0.5],\n"
               "     motor_speed: 1, max_motor_force: 3, collide_connected: true, break_force: 100,\n"
               "     break_torque: 50}\n"
               "generators:\n"
               "  - chain: {anchor: [5, 5, 0], links: 1, link_length: 0.4, link_radius: 0.1}\n");
    rb_joint_id j[16];
    assert_int_equal(joints_of(w, j), 8);
    static const rb_joint_type types[8] = {RB_JOINT_BALL,     RB_JOINT_HINGE,  RB_JOINT_CONE_TWIST, RB_JOINT_FIXED,
                                           RB_JOINT_DISTANCE, RB_JOINT_SPRING, RB_JOINT_SLIDER,     RB_JOINT_BALL};
    static const int bodies[8][2] = {{0, 1}, {1, 2}, {-1, 2}, {1, 2}, {0, 2}, {-1, 1}, {-1, 2}, {-1, 4}};
    for (int i = 0; i < 8; ++i) {
        rb_joint_type t;
        int a, b;
        assert_int_equal(rb_joint_get_type(j[i], &t), RB_OK);
        assert_int_equal(t, types[i]);
        joint_slots(w, j[i], &a, &b);
        assert_int_equal(a, bodies[i][0]);
        assert_int_equal(b, bodies[i][1]);
    }
    rb_vec3 pa, pb;
    assert_int_equal(rb_joint_get_anchors(j[4], &pa, &pb), RB_OK); // anchor_b kept apart
    assert_vec_near(pa, 2, 5, 0, 1e-6);
    assert_vec_near(pb, 2, 3.2, 0, 1e-6);
    bool on;
    float lo, hi;
    assert_int_equal(rb_joint_get_limits(j[1], &on, &lo, &hi), RB_OK);
    assert_true(on && lo == -0.5f && hi == 1.0f);
    assert_int_equal(rb_joint_get_limits(j[4], &on, &lo, &hi), RB_OK);
    assert_true(on && lo == 1.0f && hi == 2.0f);
    assert_int_equal(rb_joint_get_limits(j[6], &on, &lo, &hi), RB_OK);
    assert_true(on && lo == -0.25f && hi == 0.5f);
    float s1, s2, tw;
    assert_int_equal(rb_joint_get_cone_limits(j[2], &s1, &s2, &tw), RB_OK);
    assert_true(s1 == 0.3f && s2 == 0.4f && tw == 0.0f);
    // the frames: the hinge's ẑ is its axis; the cone's x̂ its axis and ŷ its reference axis
    rb_quat fa, fb;
    assert_int_equal(rb_joint_get_frames(j[1], &fa, &fb), RB_OK);
    assert_vec_near(rotate(fa, (rb_vec3){0, 0, 1}), 0, 0, 1, 1e-6);
    assert_int_equal(rb_joint_get_frames(j[2], &fa, &fb), RB_OK);
    assert_vec_near(rotate(fa, (rb_vec3){1, 0, 0}), 0, -1, 0, 1e-6);
    assert_vec_near(rotate(fa, (rb_vec3){0, 1, 0}), 1, 0, 0, 1e-6);
    rb_destroy_world(w);
}

// ---- the generators ----

// The ragdoll at scale 3.5 with its origin where the bench puts ragdoll 0, (-48, 1, 0), is the first
// ragdoll of bench/compare/joint_scenes.h body for body and joint for joint: poses, masses, inertia of
// the solid capsules, joint types, bodies, both anchors (apart at creation), frames and limits.
static void test_ragdoll_is_the_bench_ragdoll(void **state)
{
    (void)state;
    scn_scene s;
    scn_make_ragdolls(&s);
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\ngenerators:\n  - ragdoll: {position: [-48, 1, 0], scale: 3.5}\n");
    assert_int_equal(body_count(w), SCN_RAGDOLL_PARTS);
    for (int i = 0; i < SCN_RAGDOLL_PARTS; ++i) {
        const scn_body *e = &s.bodies[i];
        rb_body_id b = body_at(w, i);
        rb_transform t;
        rb_mass_data m;
        assert_int_equal(rb_body_get_transform(b, &t), RB_OK);
        assert_int_equal(rb_body_get_mass_data(b, &m), RB_OK);
        assert_vec_near(t.p, e->position.x, e->position.y, e->position.z, 1e-5);
        double sign = t.q.w * e->orientation.w >= 0.0 ? 1.0 : -1.0; // q and -q are one rotation
        assert_near(sign * t.q.w, e->orientation.w, 1e-6);
        assert_near(sign * t.q.x, e->orientation.x, 1e-6);
        assert_near(sign * t.q.y, e->orientation.y, 1e-6);
        assert_near(sign * t.q.z, e->orientation.z, 1e-6);
        assert_near(m.mass, e->mass, 1e-6);
        assert_vec_near(m.inertia, e->inertia.x, e->inertia.y, e->inertia.z, 1e-5);
        rb_shape_id sh;
        int n;
        rb_capsule c;
        assert_int_equal(rb_body_get_shapes(b, &sh, 1, &n), RB_OK);
        assert_int_equal(n, 1);
        assert_int_equal(rb_shape_get_capsule(sh, &c), RB_OK);
        assert_near(c.radius, e->radius, 1e-6);
        assert_near(2.0 * c.half_length, e->length, 1e-6);
        float ld, ad;
        assert_int_equal(rb_body_get_linear_damping(b, &ld), RB_OK);
        assert_int_equal(rb_body_get_angular_damping(b, &ad), RB_OK);
        assert_near(ld, -log(1.0 - e->linear_damping), 1e-6); // Bullet's 0.05 and 0.85 as rates
        assert_near(ad, -log(1.0 - e->angular_damping), 1e-6);
    }
    rb_joint_id j[16];
    assert_int_equal(joints_of(w, j), SCN_RAGDOLL_JOINTS);
    for (int k = 0; k < SCN_RAGDOLL_JOINTS; ++k) {
        const scn_joint *e = &s.joints[k];
        rb_joint_type t;
        int a, b;
        assert_int_equal(rb_joint_get_type(j[k], &t), RB_OK);
        assert_int_equal(t, e->type == SCN_HINGE ? RB_JOINT_HINGE : RB_JOINT_CONE_TWIST);
        joint_slots(w, j[k], &a, &b);
        assert_int_equal(a, e->body_a);
        assert_int_equal(b, e->body_b);
        rb_vec3 pa, pb;
        assert_int_equal(rb_joint_get_anchors(j[k], &pa, &pb), RB_OK);
        assert_vec_near(pa, e->anchor_a.x, e->anchor_a.y, e->anchor_a.z, 2e-5);
        assert_vec_near(pb, e->anchor_b.x, e->anchor_b.y, e->anchor_b.z, 2e-5);
        rb_quat fa, fb;
        assert_int_equal(rb_joint_get_frames(j[k], &fa, &fb), RB_OK);
        for (int axis = 0; axis < 3; ++axis) {
            scn_vec3 x = scn_axis(e->frame, axis);
            rb_vec3 unit = {axis == 0, axis == 1, axis == 2};
            assert_vec_near(rotate(fa, unit), x.x, x.y, x.z, 1e-5);
            assert_vec_near(rotate(fb, unit), x.x, x.y, x.z, 1e-5);
        }
        if (e->type == SCN_HINGE) {
            bool on;
            float lo, hi;
            assert_int_equal(rb_joint_get_limits(j[k], &on, &lo, &hi), RB_OK);
            assert_true(on);
            assert_near(lo, e->lo, 1e-6);
            assert_near(hi, e->hi, 1e-6);
        } else {
            float s1, s2, tw;
            assert_int_equal(rb_joint_get_cone_limits(j[k], &s1, &s2, &tw), RB_OK);
            assert_near(s1, e->swing, 1e-6);
            assert_near(s2, e->swing, 1e-6);
            assert_near(tw, e->twist, 1e-6);
        }
    }
    rb_destroy_world(w);
    scn_free(&s);
}

// count [3, 2, 1] makes 6 ragdolls of 11 bodies and 10 joints each, in loop order y, x, z, around
// `position` with `spacing`; each joint joins two parts of its own ragdoll, the part indices of the
// bench table; 1 kg a part unless `mass` says; `scale` scales every length.
static void test_ragdolls_are_laid_out_by_count_and_spacing(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "generators:\n"
               "  - ragdoll: {position: [1, 2, 3], scale: 2, count: [3, 2, 1], spacing: [5, 6, 7], mass: 2}\n");
    assert_int_equal(body_count(w), 6 * 11);
    rb_joint_id j[128];
    assert_int_equal(joints_of(w, j), 6 * 10);
    static const int parts[10][2] = {{0, 1}, {1, 2}, {0, 3}, {3, 4}, {0, 5}, {5, 6}, {1, 7}, {7, 8}, {1, 9}, {9, 10}};
    for (int d = 0; d < 6; ++d) {
        int iy = d / 3, ix = d % 3;
        // the pelvis sits 1.0 x scale above the origin
        assert_vec_near(position(body_at(w, 11 * d)), 1.0 + (ix - 1) * 5.0, 2.0 + iy * 6.0 + 2.0, 3.0, 1e-5);
        float mass;
        assert_int_equal(rb_body_get_mass(body_at(w, 11 * d + 4), &mass), RB_OK);
        assert_near(mass, 2.0, 1e-6);
        for (int k = 0; k < 10; ++k) {
            int a, b;
            joint_slots(w, j[10 * d + k], &a, &b);
            assert_int_equal(a, 11 * d + parts[k][0]);
            assert_int_equal(b, 11 * d + parts[k][1]);
        }
    }
    rb_destroy_world(w);
}

// The chain with the bench scene's numbers is bench/compare/joint_scenes.h's `chain`: 40 links and the
// 20 kg ball at the same poses with the same masses, 41 ball joints at the same anchors.
static void test_chain_is_the_bench_chain(void **state)
{
    (void)state;
    scn_scene s;
    scn_make_chain(&s);
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "generators:\n"
               "  - chain: {anchor: [0, 30, 0], links: 40, link_length: 0.7, link_radius: 0.1, link_mass: 1,\n"
               "            end_radius: 0.5, end_mass: 20}\n");
    assert_int_equal(body_count(w), s.body_count);
    for (int i = 0; i < s.body_count; ++i) {
        const scn_body *e = &s.bodies[i];
        rb_transform t;
        rb_mass_data m;
        assert_int_equal(rb_body_get_transform(body_at(w, i), &t), RB_OK);
        assert_int_equal(rb_body_get_mass_data(body_at(w, i), &m), RB_OK);
        assert_vec_near(t.p, e->position.x, e->position.y, e->position.z, 1e-5);
        assert_near(fabs(t.q.w), fabs(e->orientation.w), 1e-6);
        assert_near(t.q.z * (t.q.w < 0 ? -1 : 1), e->orientation.z * (e->orientation.w < 0 ? -1 : 1), 1e-6);
        assert_near(m.mass, e->mass, 1e-5);
        assert_vec_near(m.inertia, e->inertia.x, e->inertia.y, e->inertia.z, 1e-5);
    }
    rb_joint_id j[64];
    assert_int_equal(joints_of(w, j), s.joint_count);
    for (int k = 0; k < s.joint_count; ++k) {
        const scn_joint *e = &s.joints[k];
        rb_joint_type t;
        int a, b;
        rb_vec3 pa, pb;
        assert_int_equal(rb_joint_get_type(j[k], &t), RB_OK);
        assert_int_equal(t, RB_JOINT_BALL);
        joint_slots(w, j[k], &a, &b);
        assert_int_equal(a, e->body_a);
        assert_int_equal(b, e->body_b);
        assert_int_equal(rb_joint_get_anchors(j[k], &pa, &pb), RB_OK);
        assert_vec_near(pa, e->anchor_a.x, e->anchor_a.y, e->anchor_a.z, 2e-5);
        assert_vec_near(pb, e->anchor_a.x, e->anchor_a.y, e->anchor_a.z, 2e-5);
    }
    rb_destroy_world(w);
    scn_free(&s);
}

// A chain hung straight down: 5 links of 0.5 m (1 kg) and a 5 kg ball of radius 0.2 under a fixed
// point. It hangs at rest at its length: after 5 s the ball's centre is 5 x 0.5 + 0.2 = 2.7 m below
// the anchor (within 1 cm: the rigid solvers' joints, warm started at 0.85 of their impulse, keep a
// sag of 7 mm) and right under it, on every CPU solver.
static void test_chain_hangs_at_its_length(void **state)
{
    (void)state;
    static const char *const solvers[] = {"soft", "batched", "split", "sequential"};
    for (int i = 0; i < 4; ++i) {
        char text[512];
        snprintf(text, sizeof text,
                 "rubble-scene: 1\n"
                 "world: {sleep: false, solver: %s}\n"
                 "generators:\n"
                 "  - chain: {anchor: [1, 20, -1], direction: [0, -3, 0], links: 5, link_length: 0.5,\n"
                 "            link_radius: 0.05, link_mass: 1, end_radius: 0.2, end_mass: 5}\n",
                 solvers[i]);
        rb_world_id w = new_world();
        load_ok(w, text);
        assert_int_equal(body_count(w), 6);
        assert_int_equal(joint_count(w), 6);
        rb_joint_id j[8];
        joints_of(w, j);
        for (int k = 0; k < 6; ++k) { // joint k is 0.5 k below the anchor, between links k - 1 and k
            rb_vec3 pa;
            int a, b;
            assert_int_equal(rb_joint_get_anchors(j[k], &pa, NULL), RB_OK);
            assert_vec_near(pa, 1, 20 - 0.5 * k, -1, 1e-6);
            joint_slots(w, j[k], &a, &b);
            assert_int_equal(a, k - 1);
            assert_int_equal(b, k);
        }
        step(w, 300);
        rb_vec3 ball = position(body_at(w, 5));
        double below = 20.0 - ball.y;
        print_message("hanging chain (%s): the ball is %.5f m below the anchor (2.7 m), %.2e m off the vertical\n",
                      solvers[i], below, hypot(ball.x - 1.0, ball.z + 1.0));
        assert_near(below, 2.7, 1e-2);
        assert_near(ball.x, 1.0, 1e-4);
        assert_near(ball.z, -1.0, 1e-4);
        rb_destroy_world(w);
    }
}

// docs/scene-format.md's examples of the joints list and of the two generators load and build what the
// page says: 3 bodies and 2 joints; 4 + 1 ragdolls; the bench chain.
static void test_the_joint_examples_of_the_format_documentation_load(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/../../docs/scene-format.md", scene_dir());
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static char doc[131072];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    static const struct {
        const char *section;
        int bodies, joints;
    } examples[] = {{"## `joints`", 3, 2}, {"### `ragdoll`", 55, 50}, {"### `chain`", 41, 41}};
    for (int i = 0; i < 3; ++i) {
        char *section = strstr(doc, examples[i].section);
        assert_non_null(section);
        char *start = strstr(section, "```yaml\n");
        assert_non_null(start);
        start += strlen("```yaml\n");
        char *end = strstr(start, "```");
        assert_non_null(end);
        static char text[8192];
        assert_true((size_t)(end - start) + 32 < sizeof text);
        snprintf(text, sizeof text, "rubble-scene: 1\n%.*s", (int)(end - start), start);
        rb_world_id w = new_world();
        if (rb_load_scene_text(w, text, examples[i].section) != RB_OK)
            fail_msg("%s", rb_last_error(w));
        assert_int_equal(body_count(w), examples[i].bodies);
        assert_int_equal(joint_count(w), examples[i].joints);
        step(w, 10);
        rb_destroy_world(w);
    }
}

// ---- the data files ----

// The largest distance between the two copies of an anchor of the joints that hold their anchors
// together (not distance, spring and slider joints), and the largest amount by which a rope (a distance
// joint with limits) is out of its range.
static void joint_errors(rb_world_id w, double *gap, double *rope)
{
    static rb_joint_id j[2000];
    int n = joints_of(w, j);
    *gap = *rope = 0.0;
    for (int k = 0; k < n; ++k) {
        rb_joint_type t;
        assert_int_equal(rb_joint_get_type(j[k], &t), RB_OK);
        if (t == RB_JOINT_DISTANCE) {
            bool on;
            float lo, hi, len = coordinate(j[k]);
            assert_int_equal(rb_joint_get_limits(j[k], &on, &lo, &hi), RB_OK);
            if (on)
                *rope = fmax(*rope, fmax(len - hi, lo - len));
        } else if (t != RB_JOINT_SPRING && t != RB_JOINT_SLIDER) {
            rb_vec3 pa, pb;
            assert_int_equal(rb_joint_get_anchors(j[k], &pa, &pb), RB_OK);
            *gap = fmax(*gap, dist(pa, pb));
        }
    }
}

// Every data/scenes file with joints loads and runs 60 steps with every joint holding within 5 cm (the
// ragdolls' anchors start up to 10 cm apart) and nothing escaping (non-finite, below y = -1, or more
// than 100 m out); chain.yaml, ragdolls.yaml and joints-demo.yaml are among them with their counts.
static void test_every_scene_file_with_joints_holds_them_for_60_steps(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int bodies, joints;
    } expected[] = {{"chain.yaml", 41, 41}, {"ragdolls.yaml", 133, 120}, {"joints-demo.yaml", 102, 94}};
    int seen = 0;
    DIR *dir = opendir(scene_dir());
    assert_non_null(dir);
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", scene_dir(), e->d_name);
        rb_world_id w = new_world();
        if (rb_load_scene(w, path) != RB_OK)
            fail_msg("%s: %s", path, rb_last_error(w));
        for (int i = 0; i < 3; ++i) {
            if (strcmp(e->d_name, expected[i].file) == 0) {
                assert_int_equal(body_count(w), expected[i].bodies);
                assert_int_equal(joint_count(w), expected[i].joints);
                ++seen;
            }
        }
        if (joint_count(w) == 0) {
            rb_destroy_world(w);
            continue;
        }
        step(w, 60);
        double gap, rope;
        joint_errors(w, &gap, &rope);
        rb_counters c;
        assert_int_equal(rb_world_get_counters(w, &c), RB_OK);
        rb_transform *t = malloc(sizeof *t * (size_t)c.body_slots);
        assert_non_null(t);
        assert_int_equal(rb_world_get_transforms(w, 0, c.body_slots, t), RB_OK);
        int escaped = 0;
        for (int i = 0; i < c.body_slots; ++i) {
            rb_vec3 p = t[i].p;
            escaped += !(isfinite(p.x) && isfinite(p.y) && isfinite(p.z)) || p.y < -1.0f || fabsf(p.x) > 100.0f ||
                       fabsf(p.z) > 100.0f;
        }
        free(t);
        print_message("%s: %d joints; after 60 steps the largest anchor gap is %.4f m, ropes out of range by %.4f m; "
                      "%d bodies escaped\n", e->d_name, joint_count(w), gap, rope, escaped);
        assert_true(gap <= 0.05);
        assert_true(rope <= 0.05);
        assert_int_equal(escaped, 0);
        assert_int_equal(c.frozen_bodies, 0);
        rb_destroy_world(w);
    }
    closedir(dir);
    assert_int_equal(seen, 3);
}

// ---- bad joints ----

// A world with bodies and a joint in it, stepped, and what a failed load must leave alone.
typedef struct snapshot {
    int bodies, body_slots, shapes, joints;
    rb_joint_id joint_ids[4];
    rb_transform transforms[4];
} snapshot;

static rb_world_id populated_world(void)
{
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "bodies:\n"
               "  - {name: ground, type: static, shapes: [{plane: {}}]}\n"
               "  - {name: ball, position: [0, 3, 0], shapes: [{sphere: {radius: 0.5}}]}\n"
               "joints:\n"
               "  - {type: distance, body_b: ball, anchor: [0, 5, 0], anchor_b: [0, 3, 0]}\n");
    step(w, 3);
    return w;
}

static snapshot take_snapshot(rb_world_id w)
{
    snapshot s;
    memset(&s, 0, sizeof s);
    rb_counters c;
    assert_int_equal(rb_world_get_counters(w, &c), RB_OK);
    s.bodies = c.bodies;
    s.body_slots = c.body_slots;
    s.shapes = c.shapes;
    assert_int_equal(rb_world_get_joints(w, s.joint_ids, 4, &s.joints), RB_OK);
    assert_true(s.joints <= 4 && s.body_slots <= 4);
    assert_int_equal(rb_world_get_transforms(w, 0, s.body_slots, s.transforms), RB_OK);
    return s;
}

static void assert_unchanged(rb_world_id w, const snapshot *before)
{
    snapshot now = take_snapshot(w);
    assert_int_equal(now.bodies, before->bodies);
    assert_int_equal(now.body_slots, before->body_slots);
    assert_int_equal(now.shapes, before->shapes);
    assert_int_equal(now.joints, before->joints);
    for (int i = 0; i < now.joints; ++i)
        assert_true(rb_joint_equal(now.joint_ids[i], before->joint_ids[i]));
    assert_memory_equal(now.transforms, before->transforms, sizeof now.transforms[0] * (size_t)now.body_slots);
}

// After a failure, a valid load with a joint works, and its body and joint take the next slots: nothing
// of the failed load is left behind.
static void assert_valid_load_still_works(rb_world_id w, const snapshot *before)
{
    load_ok(w, "rubble-scene: 1\n"
               "bodies: [{name: bob, position: [9, 8, 7], shapes: [{sphere: {radius: 0.25}}]}]\n"
               "joints: [{type: ball, body_b: bob, anchor: [9, 9, 7]}]\n");
    rb_joint_id j[8];
    assert_int_equal(joints_of(w, j), before->joints + 1);
    int a, b;
    joint_slots(w, j[before->joints], &a, &b);
    assert_int_equal(a, -1);
    assert_int_equal(b, before->body_slots);
    assert_int_equal(j[before->joints].index1, before->joint_ids[before->joints - 1].index1 + 1);
}

static void expect_failure(const char *text, rb_status status, const char *where, const char *part)
{
    rb_world_id w = populated_world();
    snapshot before = take_snapshot(w);
    rb_status s = rb_load_scene_text(w, text, "bad.yaml");
    if (s != status)
        fail_msg("expected status '%s', got '%s': %s", rb_status_string(status), rb_status_string(s),
                 rb_last_error(w));
    print_message("%s\n", rb_last_error(w));
    assert_contains(rb_last_error(w), where);
    assert_contains(rb_last_error(w), part);
    assert_unchanged(w, &before);
    assert_valid_load_still_works(w, &before);
    rb_destroy_world(w);
}

#define BODIES                                                                                                   \
    "rubble-scene: 1\n"                                                                                          \
    "bodies:\n"                                                                                                  \
    "  - {name: frame, type: static, position: [0, 1, 0], shapes: [{box: {half_extents: [0.1, 1, 0.1]}}]}\n"     \
    "  - {name: door, position: [0.6, 1, 0], shapes: [{box: {half_extents: [0.5, 1, 0.05]}}]}\n"                 \
    "  - {name: lamp, position: [3, 1, 0], shapes: [{sphere: {radius: 0.2}}]}\n"                                 \
    "joints:\n"                                                                                                  \
    "  - {type: ball, body_b: lamp, anchor: [3, 2, 0]}\n" // joint 1, line 7

static void test_joint_naming_a_missing_body_fails_at_the_name_and_changes_nothing(void **state)
{
    (void)state;
    expect_failure(BODIES "  - {type: hinge, body_a: frame, body_b: dor, anchor: [0.1, 1, 0]}\n",
                   RB_ERR_PARSE, "bad.yaml:8:42: ", "joint 2: body_b 'dor' names no body; expected the 'name' of a "
                   "body under 'bodies': door, frame, lamp");
    expect_failure(BODIES "  - type: hinge\n"
                          "    body_a: doorframe\n"
                          "    body_b: door\n"
                          "    anchor: [0.1, 1, 0]\n",
                   RB_ERR_PARSE, "bad.yaml:9:13: ", "joint 2: body_a 'doorframe' names no body");
}

// Each malformed joint fails at its key with the reason; the world is unchanged.
static void test_bad_joints_fail_with_the_key_and_the_reason(void **state)
{
    (void)state;
    static const struct {
        const char *joint; // joint 2, on line 8
        rb_status status;
        const char *where, *part;
    } cases[] = {
        {"  - {type: hing, body_b: door, anchor: [0, 0, 0]}\n", RB_ERR_PARSE, "bad.yaml:8:12: ",
         "joint 2 type: expected ball, hinge, cone_twist, fixed, distance, spring or slider, got 'hing'"},
        {"  - {body_b: door, anchor: [0, 0, 0]}\n", RB_ERR_PARSE, "bad.yaml:8:5: ", "missing key 'type' in joint 2"},
        {"  - {type: hinge, body_b: door, anchor: [0, 0, 0], twist_span: 1}\n", RB_ERR_PARSE, "bad.yaml:8:52: ",
         "unknown key 'twist_span' in joint 2 (hinge); expected one of: type, body_a, body_b, anchor, anchor_b"},
        {"  - {type: ball, body_b: door, anchor: [0, 0, 0], axis: [0, 1, 0]}\n", RB_ERR_PARSE, "bad.yaml:8:51: ",
         "unknown key 'axis' in joint 2 (ball)"},
        {"  - {type: ball, body_a: door, anchor: [0, 0, 0]}\n", RB_ERR_PARSE, "bad.yaml:8:5: ",
         "missing key 'body_b' in joint 2"},
        {"  - {type: ball, body_b: door}\n", RB_ERR_PARSE, "bad.yaml:8:5: ", "missing key 'anchor' in joint 2"},
        {"  - {type: ball, body_a: door, body_b: world, anchor: [0, 0, 0]}\n", RB_ERR_PARSE, "bad.yaml:8:40: ",
         "joint 2: body_b must name a body; the static world can only be body_a"},
        {"  - {type: ball, body_a: door, body_b: door, anchor: [0, 0, 0]}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:40: ", "joint 2: body_a and body_b are both 'door'; a joint joins two different bodies"},
        {"  - {type: fixed, body_a: world, body_b: frame, anchor: [0, 0, 0]}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:5: ", "joint 2: neither body is dynamic (body_a the static world, body_b 'frame'); a joint "
         "needs a dynamic body"},
        {"  - {type: hinge, body_b: door, anchor: [0, 0, 0], limits: [1, -1]}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:60: ", "joint 2 limits: expected lower <= upper, got [1, -1]"},
        {"  - {type: hinge, body_b: door, anchor: [0, 0, 0], lower: -4, upper: 1}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:59: ", "joint 2 limits: a hinge's limits must lie in [-pi, pi] rad, got [-4, 1]"},
        {"  - {type: hinge, body_b: door, anchor: [0, 0, 0], lower: -1}\n", RB_ERR_PARSE, "bad.yaml:8:59: ",
         "joint 2: 'lower' without 'upper'"},
        {"  - {type: slider, body_b: door, anchor: [0, 0, 0], limits: [0, 1], lower: 0}\n", RB_ERR_PARSE,
         "bad.yaml:8:76: ", "joint 2: expected either 'limits: [lower, upper]' or 'lower' and 'upper', not both"},
        {"  - {type: slider, body_b: door, anchor: [0, 0, 0], limits: [0, 1, 2]}\n", RB_ERR_PARSE,
         "bad.yaml:8:61: ", "joint 2 limits: expected a sequence of 2 numbers [lower, upper], got 3 items"},
        {"  - {type: distance, body_b: door, anchor: [0, 0, 0], limits: [-1, 1]}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:63: ", "joint 2 limits: a distance joint's limits must be >= 0 m, got [-1, 1]"},
        {"  - {type: distance, body_b: door, anchor: [0, 0, 0], limits: [0, 1], length: 2}\n", RB_ERR_PARSE,
         "bad.yaml:8:79: ", "joint 2: a distance joint with limits is a rope"},
        {"  - {type: hinge, body_b: door, anchor: [0, 0, 0], motor_speed: 1}\n", RB_ERR_PARSE, "bad.yaml:8:65: ",
         "joint 2: 'motor_speed' without 'max_motor_force'"},
        {"  - {type: hinge, body_b: door, anchor: [0, 0, 0], max_motor_force: -1}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:69: ", "joint 2 max_motor_force must be >= 0 N m, got -1"},
        {"  - {type: hinge, body_b: door, anchor: [0, 0, 0], axis: [0, 0, 0]}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:58: ", "joint 2 axis must be a non-zero vector, got [0, 0, 0]"},
        {"  - {type: cone_twist, body_b: door, anchor: [0, 0, 0], swing_span1: 0}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:70: ", "joint 2 swing_span1 must be in (0, pi) rad, got 0"},
        {"  - {type: cone_twist, body_b: door, anchor: [0, 0, 0], twist_span: 3.5}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:69: ", "joint 2 twist_span must be in [0, pi] rad, got 3.5"},
        {"  - {type: spring, body_b: door, anchor: [0, 0, 0], hertz: 2, stiffness: 10}\n", RB_ERR_PARSE,
         "bad.yaml:8:74: ", "joint 2: a spring takes either 'hertz' (with 'damping_ratio') or 'stiffness' and "
         "'damping', not both"},
        {"  - {type: spring, body_b: door, anchor: [0, 0, 0], damping_ratio: 1}\n", RB_ERR_PARSE, "bad.yaml:8:68: ",
         "joint 2: 'damping_ratio' without 'hertz'"},
        {"  - {type: spring, body_b: door, anchor: [0, 0, 0], hertz: 0}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:60: ", "joint 2: a spring needs hertz > 0, or a stiffness or damping > 0"},
        {"  - {type: ball, body_b: door, anchor: [0, 0, 0], break_force: -5}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:8:64: ", "joint 2 break_force must be >= 0 N (0: never breaks), got -5"},
        {"  - {type: ball, body_b: door, anchor: [0, 0], collide_connected: true}\n", RB_ERR_PARSE,
         "bad.yaml:8:40: ", "joint 2 anchor: expected a sequence of 3 numbers [x, y, z], got 2 items"},
        {"  - [ball, door]\n", RB_ERR_PARSE, "bad.yaml:8:5: ", "joint 2: expected a mapping"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char text[2048];
        snprintf(text, sizeof text, "%s%s", BODIES, cases[i].joint);
        expect_failure(text, cases[i].status, cases[i].where, cases[i].part);
    }
    expect_failure("rubble-scene: 1\njoints: {type: ball}\n", RB_ERR_PARSE, "bad.yaml:2:9: ",
                   "joints: expected a sequence");
}

// A name that two bodies share cannot be joined (which would it be?); `world` names the static world,
// so a body named `world` cannot be joined either; names are not required to be unique otherwise.
static void test_ambiguous_body_names_fail_only_when_a_joint_uses_them(void **state)
{
    (void)state;
    expect_failure("rubble-scene: 1\n"
                   "bodies:\n"
                   "  - {name: plank, position: [0, 1, 0], shapes: [{sphere: {radius: 0.2}}]}\n"
                   "  - {name: plank, position: [1, 1, 0], shapes: [{sphere: {radius: 0.2}}]}\n"
                   "joints:\n"
                   "  - {type: ball, body_b: plank, anchor: [0, 2, 0]}\n",
                   RB_ERR_PARSE, "bad.yaml:6:26: ", "joint 1: body_b 'plank' names 2 bodies (lines 3 and 4); a "
                   "body that a joint names must have a name of its own");
    expect_failure("rubble-scene: 1\n"
                   "bodies:\n"
                   "  - {name: world, type: static, shapes: [{plane: {}}]}\n"
                   "  - {name: ball, position: [0, 1, 0], shapes: [{sphere: {radius: 0.2}}]}\n"
                   "joints:\n"
                   "  - {type: ball, body_a: world, body_b: ball, anchor: [0, 2, 0]}\n",
                   RB_ERR_PARSE, "bad.yaml:6:26: ", "joint 1: body_a 'world' is ambiguous: it means the static world, "
                   "and the body at line 3 is named 'world' too");
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "bodies:\n"
               "  - {name: plank, position: [0, 1, 0], shapes: [{sphere: {radius: 0.2}}]}\n"
               "  - {name: plank, position: [1, 1, 0], shapes: [{sphere: {radius: 0.2}}]}\n");
    assert_int_equal(body_count(w), 2);
    rb_destroy_world(w);
}

// Failures in the API after joints were created (a reference axis along the axis, which only
// rb_create_joint checks; a generator's sphere too large for the API after a ragdoll and a chain were
// built): every joint and body of the load is gone, the joint slots are given back, and the message
// says which joint or generator.
static void test_failure_after_joints_were_created_removes_them(void **state)
{
    (void)state;
    expect_failure(BODIES "  - {type: hinge, body_a: frame, body_b: door, anchor: [0.1, 1, 0], axis: [0, 1, 0]}\n"
                          "  - {type: hinge, body_b: door, anchor: [0.1, 1, 0], axis: [0, 1, 0],\n"
                          "     reference_axis: [0, 2, 0]}\n",
                   RB_ERR_INVALID_ARGUMENT, "bad.yaml:9:5: ", "joint 3: joint reference_axis (0, 2, 0) must not be "
                   "parallel to the axis");
    expect_failure(BODIES "generators:\n"
                          "  - ragdoll: {position: [0, 5, 0], count: 2}\n"
                          "  - chain: {anchor: [5, 5, 0], links: 3, link_length: 0.5, link_radius: 0.1}\n"
                          "  - grid: {count: [1, 1, 1], spacing: [1, 1, 1], shape: {sphere: {radius: 2e6}}}\n",
                   RB_ERR_INVALID_ARGUMENT, "bad.yaml:11:11: ", "grid: ");
}

// The generators' own keys are checked where they are written.
static void test_bad_generator_keys_fail_at_the_key(void **state)
{
    (void)state;
    static const struct {
        const char *gen;
        rb_status status;
        const char *where, *part;
    } cases[] = {
        {"  - ragdoll: {scale: 0}\n", RB_ERR_INVALID_ARGUMENT, "bad.yaml:3:22: ", "ragdoll scale must be > 0, got 0"},
        {"  - ragdoll: {count: [1, -2, 1]}\n", RB_ERR_INVALID_ARGUMENT, "bad.yaml:3:26: ",
         "ragdoll count must be >= 0, got -2"},
        {"  - ragdoll: {count: [1, 2]}\n", RB_ERR_PARSE, "bad.yaml:3:22: ",
         "ragdoll count: expected an integer or a sequence of 3 integers [nx, ny, nz], got 2 items"},
        {"  - ragdoll: {count: [1000, 1000, 1000]}\n", RB_ERR_CAPACITY, "bad.yaml:3:22: ",
         "these ragdolls would bring the scene to"},
        {"  - ragdoll: {density: 3}\n", RB_ERR_PARSE, "bad.yaml:3:15: ", "unknown key 'density' in ragdoll"},
        {"  - ragdoll: {damping: {linear: -1}}\n", RB_ERR_INVALID_ARGUMENT, "bad.yaml:3:33: ",
         "ragdoll damping linear must be >= 0 1/s, got -1"},
        {"  - chain: {links: 3, link_length: 1, link_radius: 0.1}\n", RB_ERR_PARSE, "bad.yaml:3:12: ",
         "missing key 'anchor' in chain"},
        {"  - chain: {anchor: [0, 5, 0], links: 0, link_length: 1, link_radius: 0.1}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:3:39: ", "chain links must be >= 1, got 0"},
        {"  - chain: {anchor: [0, 5, 0], links: 3, link_length: 0.1, link_radius: 0.1}\n", RB_ERR_INVALID_ARGUMENT,
         "bad.yaml:3:55: ", "chain link_length must be at least 2 link_radius = 0.2 m"},
        {"  - chain: {anchor: [0, 5, 0], direction: [0, 0, 0], links: 3, link_length: 1, link_radius: 0.1}\n",
         RB_ERR_INVALID_ARGUMENT, "bad.yaml:3:43: ", "chain direction must be a non-zero vector"},
        {"  - chain: {anchor: [0, 5, 0], links: 3, link_length: 1, link_radius: 0.1, end_mass: 5}\n", RB_ERR_PARSE,
         "bad.yaml:3:86: ", "chain: 'end_mass' without 'end_radius'"},
        {"  - chain: {anchor: [0, 5, 0], links: 30000000, link_length: 1, link_radius: 0.1}\n", RB_ERR_CAPACITY,
         "bad.yaml:3:39: ", "chain links 30000000 is more than the limit of 20000000 bodies per scene file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char text[1024];
        snprintf(text, sizeof text, "rubble-scene: 1\ngenerators:\n%s", cases[i].gen);
        expect_failure(text, cases[i].status, cases[i].where, cases[i].part);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hinge_pendulum_from_a_file_has_the_period_of_a_physical_pendulum),
        cmocka_unit_test(test_hinge_motor_keys_drive_the_joint),
        cmocka_unit_test(test_spring_keys_set_the_period_and_the_rest_length),
        cmocka_unit_test(test_distance_keys_make_a_rope_a_rod_and_a_joint_that_breaks),
        cmocka_unit_test(test_collide_connected_lets_the_joined_bodies_collide),
        cmocka_unit_test(test_joint_keys_reach_the_created_joints),
        cmocka_unit_test(test_ragdoll_is_the_bench_ragdoll),
        cmocka_unit_test(test_ragdolls_are_laid_out_by_count_and_spacing),
        cmocka_unit_test(test_chain_is_the_bench_chain),
        cmocka_unit_test(test_chain_hangs_at_its_length),
        cmocka_unit_test(test_the_joint_examples_of_the_format_documentation_load),
        cmocka_unit_test(test_every_scene_file_with_joints_holds_them_for_60_steps),
        cmocka_unit_test(test_joint_naming_a_missing_body_fails_at_the_name_and_changes_nothing),
        cmocka_unit_test(test_bad_joints_fail_with_the_key_and_the_reason),
        cmocka_unit_test(test_ambiguous_body_names_fail_only_when_a_joint_uses_them),
        cmocka_unit_test(test_failure_after_joints_were_created_removes_them),
        cmocka_unit_test(test_bad_generator_keys_fail_at_the_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
