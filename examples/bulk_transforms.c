// bulk_transforms.c: 1000 balls placed, read back and checked with the bulk calls.
//
// Bodies get slots in creation order (0, 1, 2, ...), and the bulk functions work on a range of
// slots: rb_world_set_transforms / rb_world_get_transforms, rb_world_get_velocities,
// rb_world_get_awake. One call moves the whole array, instead of one call per body. (Creating
// them still takes a call per body and per shape: the API has no bulk create.)
//
// What it checks (exit status 1 if any check fails):
//   1. free fall: after 0.75 s, before any ball touches anything, the centre of mass has dropped by
//      g t^2 / 2 (within 1 %) and every ball moves at -g t (within 1 %), with no sideways motion.
//      (Each substep, of h = 1/240 s here, integrates velocity, then position: after n of them the
//      drop is g h^2 n (n + 1) / 2 = g t^2 / 2 (1 + h / t), 0.56 % more at 0.75 s);
//   2. at the end (8 s), the heap has come to rest: no ball below its radius (none sank into the
//      floor) or outside the pen, a mean speed under 5 mm/s, and at most 2 % of the balls faster than
//      5 cm/s. Not "every ball still": balls have no rolling resistance, and a heap of them keeps
//      settling here and there, a ball rolling down its side now and then, so it may stay awake
//      (tests/meson.build, suite 'targets': the 8000-ball `pile` does not fall asleep in 10 s).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <rubble.h>

#define CHECK(call) do { rb_status s_ = (call); if (s_ != RB_OK) { \
    fprintf(stderr, "%s: %s: %s\n", #call, rb_status_string(s_), rb_last_error(world)); \
    exit(1); } } while (0)

enum { SIDE = 10, COUNT = SIDE * SIDE * SIDE }; // a 10 x 10 x 10 block of balls
static const float radius = 0.2f;               // m
static const float half_width = 3.0f;           // m, the pen's inner half width
static const float bottom = 4.0f;               // m, height of the lowest layer of balls

static rb_world_id world;

// A static box (one of the pen's walls).
static void add_wall(rb_vec3 position, rb_vec3 half_extents)
{
    rb_body_def bd = rb_default_body_def();
    bd.position = position;
    rb_body_id wall;
    CHECK(rb_create_body(world, &bd, &wall));
    rb_shape_def sd = rb_default_shape_def();
    rb_box box = {half_extents};
    rb_shape_id shape;
    CHECK(rb_create_box_shape(wall, &sd, &box, &shape));
}

int main(void)
{
    rb_world_def wd = rb_default_world_def();
    wd.body_capacity = COUNT + 5;
    wd.substeps = 4; // of 1/240 s, on every backend (the CPU's default; the GPUs' is 1)
    CHECK(rb_create_world(&wd, &world));
    rb_world_info info;
    CHECK(rb_world_get_info(world, &info));
    printf("backend %s, solver %s, %d threads\n", info.backend, info.solver, info.threads);

    // The balls first, so that they have slots 0 .. COUNT-1. They are created at the origin and
    // placed below with a single rb_world_set_transforms call.
    rb_shape_def sd = rb_default_shape_def();
    rb_sphere sphere = {radius};
    for (int i = 0; i < COUNT; ++i) {
        rb_body_def bd = rb_default_body_def();
        bd.type = RB_BODY_DYNAMIC;
        rb_body_id ball;
        CHECK(rb_create_body(world, &bd, &ball));
        rb_shape_id shape;
        CHECK(rb_create_sphere_shape(ball, &sd, &sphere, &shape));
    }

    // Then the ground and a pen of four walls around x, z in [-3, 3] to keep the heap together.
    rb_body_def gd = rb_default_body_def();
    rb_body_id ground;
    CHECK(rb_create_body(world, &gd, &ground));
    rb_plane floor_plane = {{0, 1, 0}, 0};
    rb_shape_id floor_shape;
    CHECK(rb_create_plane_shape(ground, &sd, &floor_plane, &floor_shape));
    float w = half_width + 0.5f;
    add_wall((rb_vec3){-w, 5, 0}, (rb_vec3){0.5f, 5, w + 0.5f});   // 10 m high
    add_wall((rb_vec3){+w, 5, 0}, (rb_vec3){0.5f, 5, w + 0.5f});
    add_wall((rb_vec3){0, 5, -w}, (rb_vec3){w + 0.5f, 5, 0.5f});
    add_wall((rb_vec3){0, 5, +w}, (rb_vec3){w + 0.5f, 5, 0.5f});

    // Place the balls in a block 0.5 m apart, each nudged sideways by up to 2 cm so that the heap
    // does not stand in perfect columns.
    static rb_transform xf[COUNT];
    srand(1);
    for (int i = 0; i < COUNT; ++i) {
        int ix = i % SIDE, iy = i / (SIDE * SIDE), iz = (i / SIDE) % SIDE;
        float jx = 0.02f * (2.0f * rand() / RAND_MAX - 1.0f);
        float jz = 0.02f * (2.0f * rand() / RAND_MAX - 1.0f);
        xf[i].p = (rb_vec3){(ix - 4.5f) * 0.5f + jx, bottom + iy * 0.5f, (iz - 4.5f) * 0.5f + jz};
        xf[i].q = (rb_quat){0, 0, 0, 1};
    }
    CHECK(rb_world_set_transforms(world, 0, COUNT, xf));
    rb_counters counters;
    CHECK(rb_world_get_counters(world, &counters));
    printf("%d bodies (%d balls in slots 0..%d), %d shapes\n", counters.bodies, COUNT, COUNT - 1,
           counters.shapes);

    // Centre of mass (all balls have the same mass: the mean position).
    double y0 = 0;
    for (int i = 0; i < COUNT; ++i)
        y0 += xf[i].p.y;
    y0 /= COUNT;

    int failures = 0;
    static rb_vec3 v[COUNT];
    int steps = 0;

    // 1. Free fall for 0.75 s: the lowest balls start 3.8 m above the floor and fall 2.76 m.
    while (steps < 45) {
        CHECK(rb_world_step(world));
        ++steps;
    }
    float t = steps * wd.time_step;
    CHECK(rb_world_get_transforms(world, 0, COUNT, xf));
    CHECK(rb_world_get_velocities(world, 0, COUNT, v, NULL));
    double y = 0, vy_min = 1e9, vy_max = -1e9, v_side = 0;
    for (int i = 0; i < COUNT; ++i) {
        y += xf[i].p.y;
        vy_min = fmin(vy_min, v[i].y);
        vy_max = fmax(vy_max, v[i].y);
        v_side = fmax(v_side, hypot(v[i].x, v[i].z));
    }
    y /= COUNT;
    double drop = y0 - y, expected_drop = 0.5 * 9.81 * t * t, expected_v = -9.81 * t;
    printf("t = %.2f s: centre of mass dropped %.4f m (g t^2/2 = %.4f m); "
           "vy in [%.4f, %.4f] m/s (-g t = %.4f); sideways speed <= %.2g m/s\n",
           t, drop, expected_drop, vy_min, vy_max, expected_v, v_side);
    failures += fabs(drop - expected_drop) > 0.01 * expected_drop;
    failures += fabs(vy_min - expected_v) > 0.01 * fabs(expected_v);
    failures += fabs(vy_max - expected_v) > 0.01 * fabs(expected_v);
    failures += v_side > 1e-6;

    // 2. Let the heap settle.
    while (steps < 480) {
        CHECK(rb_world_step(world));
        ++steps;
    }
    CHECK(rb_world_get_transforms(world, 0, COUNT, xf));
    CHECK(rb_world_get_velocities(world, 0, COUNT, v, NULL));
    static bool awake[COUNT];
    CHECK(rb_world_get_awake(world, 0, COUNT, awake));
    double y_min = 1e9, y_max = -1e9, side_max = 0, speed_max = 0, speed_mean = 0;
    int awake_count = 0, moving = 0;
    for (int i = 0; i < COUNT; ++i) {
        y_min = fmin(y_min, xf[i].p.y);
        y_max = fmax(y_max, xf[i].p.y);
        side_max = fmax(side_max, fmax(fabs(xf[i].p.x), fabs(xf[i].p.z)));
        double speed = sqrt(v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z);
        speed_max = fmax(speed_max, speed);
        speed_mean += speed / COUNT;
        moving += speed > 0.05;
        awake_count += awake[i];
    }
    printf("t = %.2f s: balls between y = %.4f and %.4f m, |x|, |z| <= %.3f m; mean speed %.5f m/s, "
           "fastest %.4f m/s, %d faster than 5 cm/s; %d of %d awake\n", steps * wd.time_step, y_min, y_max,
           side_max, speed_mean, speed_max, moving, awake_count, COUNT);
    failures += y_min < radius - 0.01f;                  // nothing sank into the floor (1 cm)
    failures += side_max > half_width - radius + 0.01f;  // nothing left the pen
    failures += speed_mean > 0.005 || moving > COUNT / 50; // the heap is at rest

    CHECK(rb_destroy_world(world));
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
