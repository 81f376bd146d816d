// backend_fallback.c: run on the backend the user asks for, or on the CPU when it cannot start.
//
//   backend_fallback [cpu|opencl|cuda|auto]      default: $RUBBLE_BACKEND, else auto
//
// rubble never falls back by itself: a world asked for a backend by name that cannot start is an
// error (RB_ERR_BACKEND_UNAVAILABLE) that says why. An application that prefers a GPU but can live
// without one probes first (rb_backend_probe), and falls back to the CPU, saying why. Then it runs a
// small scene, a ball dropped onto a stack of three boxes, and prints which backend ran it.
// Checks (exit status 1 if any fails): the backend that ran is the one asked for when the probe
// said it was available, else the CPU; after 3 s the stack stands and the ball rests on its top.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <rubble.h>

static rb_world_id world; // null until created: rb_last_error then gives this thread's last error

#define CHECK(call) do { rb_status s_ = (call); if (s_ != RB_OK) { \
    fprintf(stderr, "%s: %s: %s\n", #call, rb_status_string(s_), rb_last_error(world)); \
    exit(1); } } while (0)

// A dynamic (or static) body with one box or sphere shape.
static rb_body_id add_body(rb_body_type type, rb_vec3 position, const rb_box *box, const rb_sphere *sphere)
{
    rb_body_def bd = rb_default_body_def();
    bd.type = type;
    bd.position = position;
    rb_body_id body;
    CHECK(rb_create_body(world, &bd, &body));
    rb_shape_def sd = rb_default_shape_def();
    rb_shape_id shape;
    if (box)
        CHECK(rb_create_box_shape(body, &sd, box, &shape));
    else
        CHECK(rb_create_sphere_shape(body, &sd, sphere, &shape));
    return body;
}

int main(int argc, char **argv)
{
    // 1. The preference: the command line, else RUBBLE_BACKEND, else auto.
    const char *name = argc > 1 ? argv[1] : getenv("RUBBLE_BACKEND");
    if (!name || !*name)
        name = "auto";
    rb_backend wanted;
    if (rb_backend_from_name(name, &wanted) != RB_OK) {
        fprintf(stderr, "%s\n", rb_last_error(rb_null_world_id));
        return 2;
    }

    // 2. Probe it; fall back to the CPU if it cannot start here. (auto needs no probe: it picks the
    //    best backend that can start, and says why in rb_world_info.selection.)
    rb_backend chosen = wanted;
    if (wanted != RB_BACKEND_AUTO && wanted != RB_BACKEND_CPU) {
        rb_backend_info probe;
        CHECK(rb_backend_probe(wanted, &probe));
        if (probe.available) {
            printf("%s is available: %s\n", probe.name, probe.device);
        } else {
            printf("%s is %s: %s\nfalling back to %s\n", probe.name, probe.built ? "not available" : "not built",
                   probe.message, rb_backend_name(RB_BACKEND_CPU));
            chosen = RB_BACKEND_CPU;
        }
    }

    // 3. Create the world on it. A backend that probed well can still fail to start (a kernel that
    //    does not build, a device lost): fall back then too.
    rb_world_def wd = rb_default_world_def();
    wd.backend = chosen;
    rb_status s = rb_create_world(&wd, &world);
    if ((s == RB_ERR_BACKEND_UNAVAILABLE || s == RB_ERR_BACKEND_FAILED) && chosen != RB_BACKEND_CPU) {
        printf("%s did not start (%s: %s)\nfalling back to %s\n", rb_backend_name(chosen), rb_status_string(s),
               rb_last_error(rb_null_world_id), rb_backend_name(RB_BACKEND_CPU));
        chosen = wd.backend = RB_BACKEND_CPU;
        s = rb_create_world(&wd, &world);
    }
    CHECK(s);
    rb_world_info info;
    CHECK(rb_world_get_info(world, &info));
    printf("running on %s (%s), solver %s; selection: %s\n", info.backend, info.device, info.solver,
           info.selection);

    // 4. A small scene: a ground box, three 0.5 m boxes stacked on it, a ball dropped on top.
    rb_box ground = {{5, 0.5f, 5}};
    add_body(RB_BODY_STATIC, (rb_vec3){0, -0.5f, 0}, &ground, NULL);
    rb_box crate = {{0.25f, 0.25f, 0.25f}};
    rb_body_id top = rb_null_body_id;
    for (int i = 0; i < 3; ++i)
        top = add_body(RB_BODY_DYNAMIC, (rb_vec3){0, 0.25f + 0.5f * i, 0}, &crate, NULL);
    rb_sphere ball_shape = {0.2f};
    rb_body_id ball = add_body(RB_BODY_DYNAMIC, (rb_vec3){0, 3, 0}, NULL, &ball_shape);
    for (int i = 0; i < 180; ++i)                        // 3 s
        CHECK(rb_world_step(world));

    rb_vec3 top_p, ball_p;
    CHECK(rb_body_get_position(top, &top_p));
    CHECK(rb_body_get_position(ball, &ball_p));
    printf("after 3 s on %s: top box at y = %.4f m (placed at 1.25), ball at y = %.4f m (expected 1.7)\n",
           rb_world_backend_name(world), top_p.y, ball_p.y);

    // 5. Checks: the backend, and the physics (1 cm).
    int failures = 0;
    rb_world_def used;
    CHECK(rb_world_get_def(world, &used));
    if (chosen != RB_BACKEND_AUTO && used.backend != chosen) {
        printf("ran on %s, chose %s\n", rb_backend_name(used.backend), rb_backend_name(chosen));
        ++failures;
    }
    failures += fabsf(top_p.y - 1.25f) > 0.01f || fabsf(top_p.x) > 0.01f || fabsf(top_p.z) > 0.01f;
    failures += fabsf(ball_p.y - 1.7f) > 0.01f;
    CHECK(rb_destroy_world(world));
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
