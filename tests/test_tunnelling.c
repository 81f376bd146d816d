// No tunnelling (issue 18): fast bodies never pass through a static 0.1 m wall or a ground plane, on
// every solver and backend (RUBBLE_TEST_SOLVER, RUBBLE_TEST_BACKEND; tests/meson.build runs this file for
// each). Two mechanisms hold them: speculative contacts, which every solver makes from the first substep
// (each detection looks ahead by the motion of the substep, or of the frame for the soft solver, and the
// solver lets a gap close by at most its width), and for bodies flagged as bullets the sweep after the
// step (core/kernels/time_of_impact.h), which also holds oblique shots near edges and spinning bodies.
//
// A sweep of shots runs side by side in one world, each in its own lane (its own wall, 4 m apart in z,
// so lanes never meet): speeds 1-1000 m/s, from 1 cm before the wall to three frames' travel, head-on and
// oblique, aimed at the middle of the face and near its edge, for a 0.1 m ball (r = 0.05 m), a 0.1 m cube
// and a capsule. A shot tunnels when its centre crosses the wall's mid-plane (x = 0) within the face
// (|y| < 1 m minus its bounding radius) between two frames, or, against the ground, when its centre goes
// below the surface. Bullets must never tunnel; bodies that are not bullets must not head-on, where
// speculative contacts are enough (a shot that grazes an edge at an angle can still slip through the
// corner between two substeps' contacts: that is what bullets are for).
// RUBBLE_TUNNEL_REPORT=1 prints every shot that tunnels (the table in docs/solver.md).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kernels/time_of_impact.h"
#include "physics_util.h"

#define WALL_HALF_THICKNESS 0.05f // the 0.1 m wall: x in [-0.05, 0.05], y and z in [-1, 1] about its lane
#define WALL_HALF_SIZE 1.0f
#define LANE_SPACING 4.0f
#define MAX_LANES 64

typedef enum shape_kind { BALL, CUBE, CAPSULE } shape_kind;
static const char *const shape_names[] = {"ball", "cube", "capsule"};

// Half the extent of each shape along the shot (x; the capsule lies along y) and its bounding radius.
static float half_extent_x(shape_kind k) { return k == CAPSULE ? 0.03f : 0.05f; }
static float bounding_radius(shape_kind k) { return k == BALL ? 0.05f : (k == CUBE ? 0.0866f : 0.08f); }

static bool report(void)
{
    const char *v = getenv("RUBBLE_TUNNEL_REPORT");
    return v && strcmp(v, "1") == 0;
}

static rb_world_id make_world(int threads)
{
    rb_world_def d = pu_world_def(false);
    d.gravity = v3(0.0f, 0.0f, 0.0f);
    if (threads > 0)
        d.threads = threads;
    return pu_make_world_from(&d);
}

static rb_body_id add_static_box(rb_world_id w, rb_vec3 at, rb_vec3 half, rb_body_type type, rb_vec3 velocity)
{
    rb_body_def bd = rb_default_body_def();
    bd.type = type;
    bd.position = at;
    bd.linear_velocity = velocity;
    rb_body_id b;
    RB_CHECK(rb_create_body(w, &bd, &b));
    rb_shape_def sd = pu_material(0.0f, 0.0f);
    rb_box box = {half};
    rb_shape_id s;
    RB_CHECK(rb_create_box_shape(b, &sd, &box, &s));
    return b;
}

static rb_body_id add_shot(rb_world_id w, shape_kind k, rb_vec3 at, rb_vec3 v, bool bullet)
{
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    bd.position = at;
    bd.linear_velocity = v;
    bd.is_bullet = bullet;
    rb_body_id b;
    RB_CHECK(rb_create_body(w, &bd, &b));
    rb_shape_def sd = pu_material(0.0f, 0.0f);
    rb_shape_id s;
    if (k == BALL) {
        rb_sphere sp = {0.05f};
        RB_CHECK(rb_create_sphere_shape(b, &sd, &sp, &s));
    } else if (k == CUBE) {
        rb_box bx = {v3(0.05f, 0.05f, 0.05f)};
        RB_CHECK(rb_create_box_shape(b, &sd, &bx, &s));
    } else {
        rb_capsule c = {0.05f, 0.03f}; // half length, radius: 0.16 m long, along y
        RB_CHECK(rb_create_capsule_shape(b, &sd, &c, &s));
    }
    return b;
}

// One shot: where it starts and how it flies.
typedef struct shot {
    float speed, distance, angle, aim;
    bool bullet;
} shot;

typedef struct lane {
    shot s;
    rb_body_id body;
    float z;
    rb_vec3 prev;
    float closest; // the wall: the largest x of the centre seen (its closest approach to the face)
    bool tunnelled;
    float lowest; // ground: the lowest centre height seen
} lane;

static const float speeds[] = {1.0f, 10.0f, 100.0f, 300.0f, 1000.0f};
// distances before the touch, as metres or (negative) as multiples of the frame's travel
static const float distances[] = {0.01f, 0.3f, -0.5f, -1.5f, -3.0f};
// (angle from the wall's normal in the x-y plane, rad; aimed height on the face, m): head-on at the
// middle and near the edge; oblique upwards at the middle and near the top edge; downwards onto the top
// edge's neighbourhood, coming from above the wall
static const float aims[][2] = {{0.0f, 0.0f}, {0.0f, 0.93f}, {0.6f, 0.5f}, {0.6f, 0.9f}, {1.1f, 0.9f}, {-0.6f, 0.9f}};

static float shot_distance(const shot *s)
{
    return s->distance >= 0.0f ? s->distance : -s->distance * s->speed * PU_H;
}

// Did the centre cross the wall's mid-plane within the face between `a` and `b` (lane frame: wall at x = 0,
// y = 0)?
static bool crossed_wall(rb_vec3 a, rb_vec3 b, float radius)
{
    if (!(a.x < 0.0f && b.x >= 0.0f))
        return false;
    float f = -a.x / (b.x - a.x);
    float y = a.y + f * (b.y - a.y);
    return fabsf(y) < WALL_HALF_SIZE - radius;
}

typedef struct sweep_result {
    int shots, tunnelled, tunnelled_head_on_plain, tunnelled_bullets;
    float worst_stop_error; // head-on bullets against the wall: |closest x - (face - half extent)|
    float worst_rest_speed; // and their speed after it, over 0.01 m/s + 1e-4 of the shot's speed
    rb_world_def def;       // as the worlds resolved it (backend, solver)
} sweep_result;

// The shots of one speed for shape k against the wall (ground = false) or the ground plane, bullets and
// plain bodies side by side, added to *r. Lanes are farther apart than twice a frame's travel: a
// speculative contact looks ahead by that much in every direction, and one with another lane's wall
// deflects a shot that passes it (the contact's normal is held fixed over the frame; docs/solver.md).
static void run_speed(shape_kind k, bool ground, float speed, sweep_result *r)
{
    rb_world_id w = make_world(0);
    static lane lanes[MAX_LANES];
    int n = 0;
    if (ground)
        pu_add_ground(w, 0.0f, 0.0f);
    float ex = ground ? (k == CAPSULE ? 0.08f : 0.05f) : half_extent_x(k); // along the shot's normal
    float spacing = LANE_SPACING + 2.0f * speed * PU_H;
    for (int bullet = 0; bullet < 2; ++bullet)
        for (size_t di = 0; di < sizeof distances / sizeof *distances; ++di)
            for (size_t ai = 0; ai < sizeof aims / sizeof *aims; ++ai) {
                lane *l = &lanes[n];
                l->s = (shot){speed, distances[di], aims[ai][0], aims[ai][1], bullet == 1};
                l->z = spacing * (float)n;
                float d = shot_distance(&l->s), c = cosf(l->s.angle), sn = sinf(l->s.angle);
                rb_vec3 at, v;
                if (ground) {
                    // down onto the plane y = 0, tilted by the angle towards +x; aimed at x = aim
                    at = v3(l->s.aim - d * sn, ex + d * c, l->z);
                    v = v3(l->s.speed * sn, -l->s.speed * c, 0.0f);
                } else {
                    add_static_box(w, v3(0.0f, 0.0f, l->z), v3(WALL_HALF_THICKNESS, WALL_HALF_SIZE, WALL_HALF_SIZE),
                                   RB_BODY_STATIC, v3(0.0f, 0.0f, 0.0f));
                    at = v3(-WALL_HALF_THICKNESS - ex - d * c, l->s.aim - d * sn, l->z);
                    v = v3(l->s.speed * c, l->s.speed * sn, 0.0f);
                }
                l->body = add_shot(w, k, at, v, l->s.bullet);
                l->prev = v3(at.x, at.y, 0.0f);
                l->tunnelled = false;
                l->closest = at.x;
                l->lowest = at.y;
                ++n;
            }
    // long enough for the slowest shot from the farthest start (0.3 m at 1 m/s) to arrive and stop
    for (int step = 0; step < 40; ++step) {
        RB_CHECK(rb_world_step(w));
        for (int i = 0; i < n; ++i) {
            lane *l = &lanes[i];
            rb_vec3 p = pu_position(l->body);
            p.z -= l->z;
            if (ground) {
                l->lowest = fminf(l->lowest, p.y);
                l->tunnelled |= p.y < 0.0f;
            } else {
                l->tunnelled |= crossed_wall(l->prev, p, bounding_radius(k));
                l->closest = fmaxf(l->closest, p.x);
            }
            l->prev = p;
        }
    }
    r->shots += n;
    RB_CHECK(rb_world_get_def(w, &r->def));
    for (int i = 0; i < n; ++i) {
        const lane *l = &lanes[i];
        bool head_on = l->s.angle == 0.0f;
        if (head_on && l->s.bullet && !ground) {
            // it came to the face (its closest approach) and stopped there: what speed is left is what the
            // solver leaves after stopping 1000 m/s (the soft solver's relax pass: 0.04 m/s for a cube)
            rb_vec3 v = pu_velocity(l->body);
            float e = fabsf(l->closest - (-WALL_HALF_THICKNESS - ex));
            r->worst_stop_error = fmaxf(r->worst_stop_error, e);
            r->worst_rest_speed = fmaxf(r->worst_rest_speed, v3_len(v) / (0.01f + 1e-4f * l->s.speed));
            if (report() && e >= 2e-3f)
                print_message("stop: %s v=%g m/s d=%g m aim=%g -> closest x %.4f, v=%.3g\n", shape_names[k],
                              (double)l->s.speed, (double)shot_distance(&l->s), (double)l->s.aim,
                              (double)l->closest, (double)v.x);
        }
        if (!l->tunnelled)
            continue;
        ++r->tunnelled;
        r->tunnelled_bullets += l->s.bullet;
        r->tunnelled_head_on_plain += head_on && !l->s.bullet;
        if (report()) {
            rb_vec3 p = pu_position(l->body);
            print_message("tunnel: %s %s %s v=%g m/s d=%g m angle=%g aim=%g -> (%.3f, %.3f)\n", shape_names[k],
                          ground ? "ground" : "wall", l->s.bullet ? "bullet" : "plain", (double)l->s.speed,
                          (double)shot_distance(&l->s), (double)l->s.angle, (double)l->s.aim, (double)p.x,
                          (double)p.y);
        }
    }
    rb_destroy_world(w);
}

// Every shot of the sweep for shape k against the wall or the ground.
static sweep_result run_sweep(shape_kind k, bool ground)
{
    sweep_result r;
    memset(&r, 0, sizeof r);
    for (size_t si = 0; si < sizeof speeds / sizeof *speeds; ++si)
        run_speed(k, ground, speeds[si], &r);
    rb_world_def d = r.def;
    print_message("%s, %s, %s against the %s: %d shots, %d through (%d bullets, %d head-on plain); head-on bullets "
                  "stop within %.2g m of the face\n",
                  rb_backend_name(d.backend), rb_solver_name(d.solver), shape_names[k], ground ? "ground" : "wall",
                  r.shots, r.tunnelled, r.tunnelled_bullets, r.tunnelled_head_on_plain, (double)r.worst_stop_error);
    return r;
}

static void check_sweep(shape_kind k, bool ground)
{
    sweep_result r = run_sweep(k, ground);
    assert_int_equal(r.shots, 2 * 5 * 5 * 6);
    assert_int_equal(r.tunnelled_bullets, 0);
    assert_int_equal(r.tunnelled_head_on_plain, 0);
    // a head-on bullet comes to rest against the face (the sweep keeps its velocity, the next step's
    // speculative contact stops it): within the slop and the solvers' resting penetration, 2 mm
    if (!ground) {
        assert_true(r.worst_stop_error < 2e-3f);
        assert_true(r.worst_rest_speed < 1.0f);
    }
}

static void test_balls_never_pass_through_a_wall(void **state)
{
    (void)state;
    check_sweep(BALL, false);
}

static void test_cubes_never_pass_through_a_wall(void **state)
{
    (void)state;
    check_sweep(CUBE, false);
}

static void test_capsules_never_pass_through_a_wall(void **state)
{
    (void)state;
    check_sweep(CAPSULE, false);
}

static void test_balls_never_pass_through_the_ground(void **state)
{
    (void)state;
    check_sweep(BALL, true);
}

static void test_cubes_and_capsules_never_pass_through_the_ground(void **state)
{
    (void)state;
    check_sweep(CUBE, true);
    check_sweep(CAPSULE, true);
}

static void test_bullet_stops_at_the_wall_instead_of_passing(void **state)
{
    (void)state;
    // A 0.1 m ball at 1000 m/s, 2.85 m from the wall (the case: it ended at x = +497 m): it
    // travels 16.7 m a frame. It comes to rest against the face, x = -0.05 - 0.05 = -0.1 m, within the
    // slop, with no velocity left (restitution 0).
    rb_world_id w = make_world(0);
    add_static_box(w, v3(0.0f, 0.0f, 0.0f), v3(WALL_HALF_THICKNESS, WALL_HALF_SIZE, WALL_HALF_SIZE), RB_BODY_STATIC,
                   v3(0.0f, 0.0f, 0.0f));
    rb_body_id ball = add_shot(w, BALL, v3(-0.1f - 2.85f, 0.0f, 0.0f), v3(1000.0f, 0.0f, 0.0f), true);
    float max_x = -1e30f;
    for (int i = 0; i < 30; ++i) {
        RB_CHECK(rb_world_step(w));
        max_x = fmaxf(max_x, pu_position(ball).x);
    }
    rb_vec3 p = pu_position(ball), v = pu_velocity(ball);
    assert_true(max_x < -0.05f);
    assert_float_equal(p.x, -0.1f, 2e-3f);
    assert_float_equal(p.y, 0.0f, 1e-4f);
    assert_true(v3_len(v) < 0.1f);
    rb_destroy_world(w);
}

// Rods (1.0 x 0.02 x 0.02 m boxes) spinning at `spin` rad/s about z fly at `speed` m/s into the wall, one
// per lane, starting at 8 phases of the turn. Returns how many got their centre to the wall's face or
// beyond at the end of some frame (the rod is 2 cm thick: a centre there means it went into the wall).
static int spinning_rods_through(bool bullet, float speed, float spin)
{
    rb_world_id w = make_world(0);
    enum { RODS = 8 };
    rb_body_id rods[RODS];
    float spacing = LANE_SPACING + 2.0f * (speed + 0.5f * spin) * PU_H;
    for (int k = 0; k < RODS; ++k) {
        float z = spacing * (float)k, phase = 0.3927f * (float)k; // 22.5 degrees apart
        add_static_box(w, v3(0.0f, 0.0f, z), v3(WALL_HALF_THICKNESS, WALL_HALF_SIZE, WALL_HALF_SIZE), RB_BODY_STATIC,
                       v3(0.0f, 0.0f, 0.0f));
        rb_body_def bd = rb_default_body_def();
        bd.type = RB_BODY_DYNAMIC;
        bd.position = v3(-1.0f - speed * PU_H * (0.25f + 0.1f * (float)k), 0.0f, z);
        bd.rotation = (rb_quat){0.0f, 0.0f, sinf(0.5f * phase), cosf(0.5f * phase)};
        bd.linear_velocity = v3(speed, 0.0f, 0.0f);
        bd.angular_velocity = v3(0.0f, 0.0f, spin);
        bd.is_bullet = bullet;
        RB_CHECK(rb_create_body(w, &bd, &rods[k]));
        rb_shape_def sd = pu_material(0.0f, 0.0f);
        rb_box rod = {v3(0.5f, 0.01f, 0.01f)};
        rb_shape_id s;
        RB_CHECK(rb_create_box_shape(rods[k], &sd, &rod, &s));
    }
    bool through[RODS] = {false};
    for (int i = 0; i < 40; ++i) {
        RB_CHECK(rb_world_step(w));
        for (int k = 0; k < RODS; ++k) {
            rb_vec3 p = pu_position(rods[k]);
            through[k] |= p.x >= -WALL_HALF_THICKNESS && fabsf(p.y) < WALL_HALF_SIZE;
        }
    }
    int n = 0;
    for (int k = 0; k < RODS; ++k)
        n += through[k];
    rb_world_def d;
    RB_CHECK(rb_world_get_def(w, &d));
    print_message("%s, %s: %s rods at %g m/s spinning at %g rad/s: %d of %d into or through the wall\n",
                  rb_backend_name(d.backend), rb_solver_name(d.solver), bullet ? "bullet" : "plain", (double)speed,
                  (double)spin, n, RODS);
    rb_destroy_world(w);
    return n;
}

static void test_spinning_rod_bullets_do_not_pass_through_a_wall(void **state)
{
    (void)state;
    // 300 rad/s: the tips move at 150 m/s, 0.8 of a turn per frame; swept with their rotation, the
    // bullets stop at the wall whatever the phase of the turn they arrive in
    assert_int_equal(spinning_rods_through(true, 60.0f, 300.0f), 0);
    assert_int_equal(spinning_rods_through(true, 300.0f, 100.0f), 0);
    spinning_rods_through(false, 60.0f, 300.0f); // for the record (docs/solver.md)
}

static void test_bullet_against_a_kinematic_wall_moving_towards_it(void **state)
{
    (void)state;
    // A kinematic 0.1 m wall at x = 5 m moves at -300 m/s towards a bullet ball flying at +300 m/s: they
    // close 10 m a frame. The ball must stay on its side of the wall (its centre behind the wall's face
    // at the end of every frame), then ride in front of it at the wall's speed.
    rb_world_id w = make_world(0);
    enum { LANES = 6 };
    rb_body_id walls[LANES], balls[LANES];
    for (int k = 0; k < LANES; ++k) {
        float z = (LANE_SPACING + 20.0f) * (float)k;
        walls[k] = add_static_box(w, v3(5.0f + 1.7f * (float)k, 0.0f, z),
                                  v3(WALL_HALF_THICKNESS, WALL_HALF_SIZE, WALL_HALF_SIZE), RB_BODY_KINEMATIC,
                                  v3(-300.0f, 0.0f, 0.0f));
        balls[k] = add_shot(w, BALL, v3(0.0f, 0.0f, z), v3(300.0f, 0.0f, 0.0f), true);
    }
    for (int i = 0; i < 20; ++i) {
        RB_CHECK(rb_world_step(w));
        for (int k = 0; k < LANES; ++k) {
            rb_vec3 b = pu_position(balls[k]), c = pu_position(walls[k]);
            assert_true(b.x < c.x - WALL_HALF_THICKNESS);
        }
    }
    for (int k = 0; k < LANES; ++k)
        assert_float_equal(pu_velocity(balls[k]).x, -300.0f, 1.0f);
    rb_destroy_world(w);
}

// A scene of many bullets: 240 balls, cubes and capsules fired outwards at 20-600 m/s from a shell 1.2 m
// around the middle of a closed room (8 m square, 4 m high, 0.1 m static walls and ceiling on a ground
// plane), under gravity, 45 steps: they hit the walls, ceiling and ground within a frame or two and come
// to rest along them. Returns every body's transform and velocities.
typedef struct bullet_scene {
    int slots;
    rb_transform *t;
    rb_vec3 *v, *w;
} bullet_scene;

#define ROOM_BULLETS 240

static void add_room(rb_world_id w)
{
    pu_add_ground(w, 0.5f, 0.0f);
    // the walls overlap at the corners (a 0.1 m ball fits through a 0.1 m gap)
    add_static_box(w, v3(4.05f, 2.0f, 0.0f), v3(0.05f, 2.1f, 4.1f), RB_BODY_STATIC, v3(0.0f, 0.0f, 0.0f));
    add_static_box(w, v3(-4.05f, 2.0f, 0.0f), v3(0.05f, 2.1f, 4.1f), RB_BODY_STATIC, v3(0.0f, 0.0f, 0.0f));
    add_static_box(w, v3(0.0f, 2.0f, 4.05f), v3(4.1f, 2.1f, 0.05f), RB_BODY_STATIC, v3(0.0f, 0.0f, 0.0f));
    add_static_box(w, v3(0.0f, 2.0f, -4.05f), v3(4.1f, 2.1f, 0.05f), RB_BODY_STATIC, v3(0.0f, 0.0f, 0.0f));
    add_static_box(w, v3(0.0f, 4.05f, 0.0f), v3(4.1f, 0.05f, 4.1f), RB_BODY_STATIC, v3(0.0f, 0.0f, 0.0f));
}

static void add_room_bullets(rb_world_id w, int count, bool bullet)
{
    for (int i = 0; i < count; ++i) {
        // a Fibonacci sphere of directions, speeds spread over 20-600 m/s
        float y = 1.0f - 2.0f * ((float)i + 0.5f) / (float)count, r = sqrtf(fmaxf(0.0f, 1.0f - y * y));
        float phi = 2.39996323f * (float)i;
        rb_vec3 dir = v3(r * cosf(phi), y, r * sinf(phi));
        float speed = 20.0f + 580.0f * (float)((i * 7919) % count) / (float)count;
        rb_vec3 at = v3_add(v3(0.0f, 2.0f, 0.0f), v3_scale(dir, 1.2f));
        add_shot(w, (shape_kind)(i % 3), at, v3_scale(dir, speed), bullet);
    }
}

static bullet_scene run_bullet_scene(int threads)
{
    rb_world_def d = pu_world_def(true);
    if (threads > 0)
        d.threads = threads;
    rb_world_id w = pu_make_world_from(&d);
    add_room(w);
    add_room_bullets(w, ROOM_BULLETS, true);
    pu_step(w, 45);
    bullet_scene s;
    s.slots = pu_body_slots(w);
    s.t = calloc((size_t)s.slots, sizeof *s.t);
    s.v = calloc((size_t)s.slots, sizeof *s.v);
    s.w = calloc((size_t)s.slots, sizeof *s.w);
    assert_non_null(s.t);
    assert_non_null(s.v);
    assert_non_null(s.w);
    RB_CHECK(rb_world_get_transforms(w, 0, s.slots, s.t));
    RB_CHECK(rb_world_get_velocities(w, 0, s.slots, s.v, s.w));
    // nothing left the room: every bullet is inside it, above the ground
    for (int i = s.slots - ROOM_BULLETS; i < s.slots; ++i) {
        rb_vec3 p = s.t[i].p;
        if (!(fabsf(p.x) < 4.0f && fabsf(p.z) < 4.0f && p.y > 0.0f && p.y < 4.0f))
            fail_msg("bullet slot %d left the room: (%g, %g, %g)", i, (double)p.x, (double)p.y, (double)p.z);
    }
    rb_destroy_world(w);
    return s;
}

static void test_bullets_are_bitwise_identical_for_any_thread_count(void **state)
{
    (void)state;
    // The sweeps are independent per bullet and each tries its pairs in one order: the result does not
    // depend on the threads (tests/test_determinism.c's promise). On a GPU backend: two runs agree.
    bullet_scene a = run_bullet_scene(1), b = run_bullet_scene(pu_world_def(false).backend == RB_BACKEND_CPU ? 3 : 1);
    assert_int_equal(a.slots, b.slots);
    for (int i = 0; i < a.slots; ++i) {
        if (memcmp(&a.t[i], &b.t[i], sizeof a.t[i]) != 0 || memcmp(&a.v[i], &b.v[i], sizeof a.v[i]) != 0 ||
            memcmp(&a.w[i], &b.w[i], sizeof a.w[i]) != 0)
            fail_msg("body slot %d differs: (%.9g, %.9g, %.9g) vs (%.9g, %.9g, %.9g)", i, (double)a.t[i].p.x,
                     (double)a.t[i].p.y, (double)a.t[i].p.z, (double)b.t[i].p.x, (double)b.t[i].p.y,
                     (double)b.t[i].p.z);
    }
    free(a.t), free(a.v), free(a.w), free(b.t), free(b.v), free(b.w);
}

// ---- the time of impact itself (core/kernels/time_of_impact.h) ----

// The deepest penetration of two shapes (> 0) or 0, by the narrow phase.
static float penetration(const rb_geom *a, const rb_geom *b)
{
    if (b->type == RB_GEOM_PLANE)
        return fmaxf(0.0f, -(-rb_geom_support(a, rb_neg(rb_xyz(b->params))) - b->params.w));
    rb_manifold m;
    rb_collide(a, b, 0.0f, &m);
    float deepest = 0.0f;
    for (int k = 0; k < m.count; ++k)
        deepest = fmaxf(deepest, -m.points[k].separation);
    return deepest;
}

static float uniform(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return (float)(*seed >> 8) / 16777216.0f;
}

// Four (three) uniform numbers in [-0.5, 0.5), drawn in order (not as arguments of one call, whose
// order C leaves open).
static rb_float4 uniform4(uint32_t *seed)
{
    float u[4];
    for (int k = 0; k < 4; ++k)
        u[k] = uniform(seed) - 0.5f;
    return rb_f4(u[0], u[1], u[2], u[3]);
}

static rb_float4 random_rotation(uint32_t *seed) { return rb_quat_normalize(uniform4(seed)); }

static void test_time_of_impact_never_passes_the_first_touch(void **state)
{
    (void)state;
    // 4000 random sweeps of a sphere, capsule or box (the bullet) against a static or moving sphere,
    // capsule, box or plane, turning by up to a radian: wherever 400 samples of the motion find the
    // shapes overlapping, the time of impact comes first, and at it they do not overlap. The target
    // separation is 0.5 mm; a shape may come as close as the tolerance below it (0.125 mm).
    uint32_t seed = 7u;
    int hits = 0, overlapping = 0;
    const float target = 5e-4f, tolerance = 1.25e-4f;
    for (int n = 0; n < 4000; ++n) {
        int ta = (int)(uniform(&seed) * 3.0f);
        int tb = (int)(uniform(&seed) * 4.0f);
        // from x in [-2, -1] to x in [1, 3], across the target at the origin
        rb_float4 u = uniform4(&seed), v = uniform4(&seed);
        rb_float4 pa = rb_f4(-1.5f + u.x, u.y, u.z, 0.0f);
        rb_float4 pa1 = rb_f4(2.0f + 2.0f * u.w, 1.5f * v.x, 1.5f * v.y, 0.0f);
        rb_float4 qa = random_rotation(&seed), qa1 = qa;
        if (n % 2) { // turn by up to a radian about a random axis
            rb_float3 axis = rb_normalize(rb_xyz(uniform4(&seed)));
            qa1 = rb_quat_mul(rb_quat_axis_angle(axis, uniform(&seed)), qa);
        }
        rb_float4 pb = rb_f4(0.0f, 0.0f, 0.0f, 0.0f), pb1 = pb, qb = random_rotation(&seed), qb1 = qb;
        if (n % 3 == 0) { // a kinematic target moving towards the bullet
            rb_float4 w = uniform4(&seed);
            pb1 = rb_f4(-0.5f * (w.x + 0.5f), 0.2f * w.y, 0.0f, 0.0f);
        }
        rb_float4 params_a = ta == RB_GEOM_SPHERE ? rb_f4(0.05f, 0, 0, 0)
                             : ta == RB_GEOM_CAPSULE ? rb_f4(0.1f, 0.03f, 0, 0) : rb_f4(0.05f, 0.1f, 0.03f, 0);
        rb_float4 params_b = tb == RB_GEOM_SPHERE ? rb_f4(0.3f, 0, 0, 0)
                             : tb == RB_GEOM_CAPSULE ? rb_f4(0.4f, 0.05f, 0, 0)
                             : tb == RB_GEOM_BOX ? rb_f4(0.05f, 0.6f, 0.5f, 0) : rb_f4(-1.0f, 0, 0, -0.3f);
        if (tb == RB_GEOM_PLANE) // the half-space x >= 0.3 (normal -x): the bullet comes from -x
            qb = qb1 = rb_quat_identity(), pb1 = pb;
        rb_float4 centre = rb_f4(0.0f, 0.0f, 0.0f, 0.5f);
        rb_sweep sa = rb_sweep_make(pa, qa, pa1, qa1, centre), sb = rb_sweep_make(pb, qb, pb1, qb1, centre);
        rb_toi_shape a = rb_toi_shape_make(ta, rb_f4(0, 0, 0, 0), rb_quat_identity(), params_a, centre);
        rb_toi_shape b = rb_toi_shape_make(tb, rb_f4(0, 0, 0, 0), rb_quat_identity(), params_b, centre);
        int st;
        float t = rb_time_of_impact(&a, &sa, &b, &sb, target, tolerance, 1.0f, &st);
        if (st == RB_TOI_OVERLAPPED)
            continue;
        rb_geom ga = rb_sweep_geom(&sa, t, &a), gb = rb_sweep_geom(&sb, t, &b);
        if (penetration(&ga, &gb) > 0.0f)
            fail_msg("case %d (%d against %d): overlapping by %g m at the time of impact %g", n, ta, tb,
                     (double)penetration(&ga, &gb), (double)t);
        float first = 2.0f;
        for (int k = 1; k <= 400 && first > 1.0f; ++k) {
            float s = (float)k / 400.0f;
            ga = rb_sweep_geom(&sa, s, &a), gb = rb_sweep_geom(&sb, s, &b);
            if (penetration(&ga, &gb) > 1e-5f)
                first = s;
        }
        if (first <= 1.0f) {
            ++overlapping;
            if (!(st == RB_TOI_HIT && t < first))
                fail_msg("case %d (%d against %d): they overlap at t = %g, the time of impact is %g (state %d)", n, ta,
                         tb, (double)first, (double)t, st);
        }
        hits += st == RB_TOI_HIT;
    }
    print_message("time of impact: %d of 4000 sweeps hit, %d of them overlap later in the step\n", hits, overlapping);
    assert_true(overlapping > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_of_impact_never_passes_the_first_touch),
        cmocka_unit_test(test_bullet_stops_at_the_wall_instead_of_passing),
        cmocka_unit_test(test_balls_never_pass_through_a_wall),
        cmocka_unit_test(test_cubes_never_pass_through_a_wall),
        cmocka_unit_test(test_capsules_never_pass_through_a_wall),
        cmocka_unit_test(test_balls_never_pass_through_the_ground),
        cmocka_unit_test(test_cubes_and_capsules_never_pass_through_the_ground),
        cmocka_unit_test(test_spinning_rod_bullets_do_not_pass_through_a_wall),
        cmocka_unit_test(test_bullet_against_a_kinematic_wall_moving_towards_it),
        cmocka_unit_test(test_bullets_are_bitwise_identical_for_any_thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
