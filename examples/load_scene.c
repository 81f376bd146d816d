// load_scene.c: load a scene file, step it, report; add a scene from text; see a bad file refused.
//
//   load_scene [SCENE.yaml [BAD.yaml]]      defaults: data/scenes/demo.yaml examples/data/bad.yaml
//
// The scene format is in docs/scene-format.md. What it checks (exit status 1 if any check fails):
//   1. the scene loads and, after 3 s, every body is finite and none has fallen through the floor;
//   2. a scene given as text adds its two bodies, and its ball comes to rest on its box;
//   3. the bad file is refused with RB_ERR_PARSE and a message that names the file, and the world
//      is unchanged: the same bodies, at the same places.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rubble.h>

static rb_world_id world;

#define CHECK(call) do { rb_status s_ = (call); if (s_ != RB_OK) { \
    fprintf(stderr, "%s: %s: %s\n", #call, rb_status_string(s_), rb_last_error(world)); \
    exit(1); } } while (0)

// The transforms of every body slot (the caller frees them); *count receives the number of slots.
static rb_transform *get_all_transforms(int *count)
{
    rb_counters c;
    CHECK(rb_world_get_counters(world, &c));
    rb_transform *xf = malloc(sizeof *xf * (size_t)(c.body_slots > 0 ? c.body_slots : 1));
    if (!xf) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    // This program never destroys a body, so every slot holds a live body.
    CHECK(rb_world_get_transforms(world, 0, c.body_slots, xf));
    *count = c.body_slots;
    return xf;
}

static void step(int steps)
{
    for (int i = 0; i < steps; ++i)
        CHECK(rb_world_step(world));
}

int main(int argc, char **argv)
{
    const char *scene = argc > 1 ? argv[1] : "data/scenes/demo.yaml";
    const char *bad_scene = argc > 2 ? argv[2] : "examples/data/bad.yaml";
    int failures = 0;

    rb_world_def wd = rb_default_world_def();
    CHECK(rb_create_world(&wd, &world));

    // 1. A scene file: its bodies are added to the world and its world settings applied.
    CHECK(rb_load_scene(world, scene));
    rb_counters c;
    CHECK(rb_world_get_counters(world, &c));
    rb_world_def def;
    CHECK(rb_world_get_def(world, &def));
    printf("loaded %s: %d bodies, %d shapes; solver %s, time step %.4f s\n", scene, c.bodies, c.shapes,
           rb_solver_name(def.solver), def.time_step);
    int steps = (int)lroundf(3.0f / def.time_step);
    step(steps);
    CHECK(rb_world_get_counters(world, &c));
    printf("after %d steps (3 s): %d bodies awake, %d contacts\n", steps, c.awake_bodies, c.contacts);
    int n;
    rb_transform *xf = get_all_transforms(&n);
    float lowest = INFINITY;
    int not_finite = 0;
    for (int i = 0; i < n; ++i) {
        rb_body_id body;
        rb_body_type type;
        CHECK(rb_world_get_body_id(world, i, &body));
        CHECK(rb_body_get_type(body, &type));
        not_finite += !(isfinite(xf[i].p.x) && isfinite(xf[i].p.y) && isfinite(xf[i].p.z));
        if (type == RB_BODY_DYNAMIC && xf[i].p.y < lowest)
            lowest = xf[i].p.y;
    }
    free(xf);
    printf("lowest dynamic body origin: y = %.3f m; %d non-finite positions\n", lowest, not_finite);
    failures += c.bodies == 0 || not_finite > 0 || !(lowest > 0.0f); // the floor of demo.yaml is y = 0

    // 2. A scene from text (the name is used in error messages): a ball above a static box.
    const char *text =
        "rubble-scene: 1\n"
        "bodies:\n"
        "  - {name: table, type: static, position: [20, 0.5, 0],\n"
        "     shapes: [{box: {half_extents: [1, 0.5, 1]}}]}\n"
        "  - {name: ball, position: [20, 3, 0], shapes: [{sphere: {radius: 0.25}}]}\n";
    int before = c.bodies;
    CHECK(rb_load_scene_text(world, text, "inline scene"));
    CHECK(rb_world_get_counters(world, &c));
    rb_body_id ball;
    CHECK(rb_world_get_body_id(world, c.body_slots - 1, &ball)); // the last body created
    step(120);
    rb_vec3 p;
    CHECK(rb_body_get_position(ball, &p));
    printf("inline scene: %d bodies added; its ball rests at y = %.4f m (table top 1 m + radius 0.25 m)\n",
           c.bodies - before, p.y);
    failures += c.bodies - before != 2 || fabsf(p.y - 1.25f) > 0.01f;

    // 3. A bad file: refused as a whole, with a message that says where and what; nothing changes.
    rb_transform *xf_before = get_all_transforms(&n);
    rb_counters c_before = c;
    rb_status s = rb_load_scene(world, bad_scene);
    const char *message = rb_last_error(world);
    printf("loading %s: %s: %s\n", bad_scene, rb_status_string(s), message);
    int n_after;
    rb_transform *xf_after = get_all_transforms(&n_after);
    CHECK(rb_world_get_counters(world, &c));
    int unchanged = n_after == n && c.bodies == c_before.bodies && c.shapes == c_before.shapes &&
                    memcmp(xf_before, xf_after, sizeof *xf_before * (size_t)n) == 0;
    printf("world after the failed load: %d bodies, %d shapes, %s\n", c.bodies, c.shapes,
           unchanged ? "unchanged" : "CHANGED");
    failures += s != RB_ERR_PARSE || strstr(message, bad_scene) == NULL || !unchanged;
    free(xf_before);
    free(xf_after);

    CHECK(rb_destroy_world(world));
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
