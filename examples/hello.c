// hello.c: drop a ball from 4 m onto the ground, print its height, check the physics.
#include <math.h>
#include <stdio.h>
#include <rubble.h>

// Every call returns an rb_status; rb_last_error(world) says what was wrong.
#define CHECK(call) do { rb_status s_ = (call); if (s_ != RB_OK) { \
    fprintf(stderr, "%s: %s: %s\n", #call, rb_status_string(s_), rb_last_error(world)); \
    return 1; } } while (0)

int main(void)
{
    rb_world_id world = rb_null_world_id;
    rb_world_def wd = rb_default_world_def();          // gravity (0, -9.81, 0), 1/60 s per step
    wd.substeps = 4;                                   // of 1/240 s (the CPU's default; GPUs': 1)
    CHECK(rb_create_world(&wd, &world));

    rb_body_def gd = rb_default_body_def();            // static by default
    rb_body_id ground;
    CHECK(rb_create_body(world, &gd, &ground));
    rb_shape_def sd = rb_default_shape_def();          // density 1000, friction 0.6, no bounce
    rb_plane floor_plane = {{0, 1, 0}, 0};             // the half-space y <= 0
    rb_shape_id floor_shape;
    CHECK(rb_create_plane_shape(ground, &sd, &floor_plane, &floor_shape));

    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    bd.position = (rb_vec3){0, 4, 0};                  // 4 m up
    rb_body_id ball;
    CHECK(rb_create_body(world, &bd, &ball));
    rb_sphere sphere = {0.25f};                        // radius, m
    rb_shape_id ball_shape;
    CHECK(rb_create_sphere_shape(ball, &sd, &sphere, &ball_shape));

    int failures = 0;
    for (int i = 1; i <= 120; ++i) {                   // 120 steps of 1/60 s: 2 s
        CHECK(rb_world_step(world));
        rb_vec3 p;
        CHECK(rb_body_get_position(ball, &p));
        float t = i * wd.time_step;
        if (i % 15 == 0)                               // every 0.25 s
            printf("t = %.2f s   y = %.4f m\n", t, p.y);
        if (i == 30) {                                 // free fall: y = 4 - g t^2 / 2 at t = 0.5 s
            float expected = 4.0f - 0.5f * 9.81f * t * t;
            printf("free fall: y = %.4f m, expected %.4f m\n", p.y, expected);
            failures += fabsf(p.y - expected) > 0.01f * expected;   // within 1 %
        }
        if (i == 120) {                                // at rest on the ground: y = radius
            printf("at rest: y = %.4f m, expected %.4f m\n", p.y, sphere.radius);
            failures += fabsf(p.y - sphere.radius) > 0.01f;         // within 1 cm
        }
    }
    CHECK(rb_destroy_world(world));
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
