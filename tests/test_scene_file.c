// Scene files (docs/scene-format.md): what a valid file builds, and that every malformed file fails
// with its FILE:LINE:COLUMN and leaves the world exactly as it was, so that a later load still works.
#define _POSIX_C_SOURCE 200809L // opendir

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rubble.h"

#include "scene_test_util.h"

// ---- helpers ----

static const char *data_dir(void)
{
    const char *dir = getenv("RUBBLE_TEST_DATA");
    return dir ? dir : "tests/data";
}

static const char *data_path(const char *file)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", data_dir(), file);
    return path;
}

static rb_counters counters(rb_world_id w)
{
    rb_counters c;
    assert_int_equal(rb_world_get_counters(w, &c), RB_OK);
    return c;
}

static rb_body_id body_at(rb_world_id w, int slot)
{
    rb_body_id id;
    assert_int_equal(rb_world_get_body_id(w, slot, &id), RB_OK);
    return id;
}

static rb_shape_id first_shape(rb_world_id w, int slot)
{
    rb_shape_id s[8];
    int n = 0;
    assert_int_equal(rb_body_get_shapes(body_at(w, slot), s, 8, &n), RB_OK);
    assert_true(n >= 1);
    return s[n - 1]; // rb_body_get_shapes lists the newest first: the last one is the first created
}

static rb_status load_text(rb_world_id w, const char *text)
{
    return rb_load_scene_text(w, text, "inline");
}

// bench-scenes.md "Random numbers", written out from the definition.
static double lcg_draw(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

// ---- a world with bodies in it, and a snapshot of everything a failed load must leave alone ----

typedef struct snapshot {
    rb_counters counters;
    rb_vec3 gravity;
    float time_step;
    int substeps;
    char solver[32];
    rb_transform transforms[8];
    rb_vec3 linear[8], angular[8];
    bool awake[8];
} snapshot;

// Ground, a moving sphere and a sleeping box, stepped a few times, with settings that differ from
// the defaults and from every file below.
static rb_world_id populated_world(void)
{
    rb_world_id w = new_world();
    assert_int_equal(rb_world_set_gravity(w, (rb_vec3){0.0f, -5.0f, 0.0f}), RB_OK);
    assert_int_equal(rb_world_set_time_step(w, 0.01f, 2), RB_OK);
    rb_body_def bd = rb_default_body_def();
    rb_shape_def sd = rb_default_shape_def();
    rb_body_id ground, ball, box;
    rb_shape_id shape;
    assert_int_equal(rb_create_body(w, &bd, &ground), RB_OK);
    rb_plane plane = {{0.0f, 1.0f, 0.0f}, 0.0f};
    assert_int_equal(rb_create_plane_shape(ground, &sd, &plane, &shape), RB_OK);
    bd.type = RB_BODY_DYNAMIC;
    bd.position = (rb_vec3){0.0f, 3.0f, 0.0f};
    bd.linear_velocity = (rb_vec3){1.0f, 0.0f, 0.0f};
    assert_int_equal(rb_create_body(w, &bd, &ball), RB_OK);
    rb_sphere sphere = {0.5f};
    assert_int_equal(rb_create_sphere_shape(ball, &sd, &sphere, &shape), RB_OK);
    bd.position = (rb_vec3){5.0f, 0.5f, 0.0f};
    bd.linear_velocity = (rb_vec3){0.0f, 0.0f, 0.0f};
    bd.is_awake = false;
    assert_int_equal(rb_create_body(w, &bd, &box), RB_OK);
    rb_box cube = {{0.5f, 0.5f, 0.5f}};
    assert_int_equal(rb_create_box_shape(box, &sd, &cube, &shape), RB_OK);
    assert_int_equal(rb_body_set_awake(box, false), RB_OK);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(rb_world_step(w), RB_OK);
    return w;
}

// The settings and the state of the bodies in slots [0, slots) (all slots when slots < 0).
static snapshot take_snapshot(rb_world_id w, int slots)
{
    snapshot s;
    memset(&s, 0, sizeof s);
    s.counters = counters(w);
    int n = slots < 0 ? s.counters.body_slots : slots;
    assert_true(n <= 8);
    assert_int_equal(rb_world_get_gravity(w, &s.gravity), RB_OK);
    assert_int_equal(rb_world_get_time_step(w, &s.time_step, &s.substeps), RB_OK);
    rb_world_info info;
    assert_int_equal(rb_world_get_info(w, &info), RB_OK);
    snprintf(s.solver, sizeof s.solver, "%s", info.solver);
    assert_int_equal(rb_world_get_transforms(w, 0, n, s.transforms), RB_OK);
    assert_int_equal(rb_world_get_velocities(w, 0, n, s.linear, s.angular), RB_OK);
    assert_int_equal(rb_world_get_awake(w, 0, n, s.awake), RB_OK);
    return s;
}

static void assert_unchanged(rb_world_id w, const snapshot *before)
{
    rb_counters c = counters(w);
    assert_int_equal(c.bodies, before->counters.bodies);
    assert_int_equal(c.shapes, before->counters.shapes);
    assert_int_equal(c.awake_bodies, before->counters.awake_bodies);
    snapshot now = take_snapshot(w, before->counters.body_slots);
    assert_memory_equal(&now.gravity, &before->gravity, sizeof now.gravity);
    assert_true(now.time_step == before->time_step);
    assert_int_equal(now.substeps, before->substeps);
    assert_string_equal(now.solver, before->solver);
    int n = before->counters.body_slots;
    assert_memory_equal(now.transforms, before->transforms, (size_t)n * sizeof now.transforms[0]);
    assert_memory_equal(now.linear, before->linear, (size_t)n * sizeof now.linear[0]);
    assert_memory_equal(now.angular, before->angular, (size_t)n * sizeof now.angular[0]);
    assert_memory_equal(now.awake, before->awake, (size_t)n * sizeof now.awake[0]);
}

// After a failure, a valid load works and its body takes the first slot the failed load freed (or
// the next new one): nothing of the failed load is left behind.
static void assert_valid_load_still_works(rb_world_id w, const snapshot *before)
{
    load_ok(w, "rubble-scene: 1\nbodies:\n  - position: [9, 8, 7]\n    shapes: [{sphere: {radius: 0.25}}]\n");
    assert_int_equal(counters(w).bodies, before->counters.bodies + 1);
    rb_vec3 p;
    assert_int_equal(rb_body_get_position(body_at(w, before->counters.body_slots), &p), RB_OK);
    assert_true(p.x == 9.0f && p.y == 8.0f && p.z == 7.0f);
}

// Loads `path` (file) or `text` (when path is NULL) into a populated world: it must fail with
// `status` and a message containing `part`, leave the world as it was, and not block a later load.
static void expect_failure(const char *path, const char *text, rb_status status, const char *part)
{
    rb_world_id w = populated_world();
    snapshot before = take_snapshot(w, -1);
    rb_status s = path ? rb_load_scene(w, path) : load_text(w, text);
    if (s != status)
        fail_msg("expected status '%s', got '%s': %s", rb_status_string(status), rb_status_string(s),
                 rb_last_error(w));
    assert_contains(rb_last_error(w), part);
    assert_unchanged(w, &before);
    assert_valid_load_still_works(w, &before);
    rb_destroy_world(w);
}

// ---- valid files ----

static void test_every_scene_file_in_the_scene_directory_loads(void **state)
{
    (void)state;
    DIR *dir = opendir(scene_dir());
    assert_non_null(dir);
    int files = 0;
    bool seen_demo = false;
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", scene_dir(), e->d_name);
        rb_world_id w = new_world();
        rb_status s = rb_load_scene(w, path);
        if (s != RB_OK)
            fail_msg("%s: %s", path, rb_last_error(w));
        assert_true(counters(w).bodies > 0);
        rb_destroy_world(w);
        seen_demo |= strcmp(e->d_name, "demo.yaml") == 0;
        ++files;
    }
    closedir(dir);
    assert_true(files >= 5); // demo and the four standard scenes at least
    assert_true(seen_demo);
}

static void test_demo_uses_every_shape_type_and_runs_two_seconds_without_trouble(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/demo.yaml", scene_dir());
    rb_world_id w = new_world();
    if (rb_load_scene(w, path) != RB_OK)
        fail_msg("%s", rb_last_error(w));
    rb_counters c = counters(w);
    assert_true(c.bodies >= 100 && c.bodies <= 500);

    int of_type[4] = {0}, kinematic = 0, compound = 0, turned_static = 0;
    bool bouncy = false, icy = false;
    for (int i = 0; i < c.body_slots; ++i) {
        rb_body_id b = body_at(w, i);
        rb_body_type type;
        rb_transform t;
        rb_shape_id shapes[8];
        int n = 0;
        assert_int_equal(rb_body_get_type(b, &type), RB_OK);
        assert_int_equal(rb_body_get_transform(b, &t), RB_OK);
        assert_int_equal(rb_body_get_shapes(b, shapes, 8, &n), RB_OK);
        kinematic += type == RB_BODY_KINEMATIC;
        compound += n > 1;
        turned_static += type == RB_BODY_STATIC && t.q.w != 1.0f;
        for (int k = 0; k < n && k < 8; ++k) {
            rb_shape_type st;
            float f, e;
            assert_int_equal(rb_shape_get_type(shapes[k], &st), RB_OK);
            assert_int_equal(rb_shape_get_friction(shapes[k], &f), RB_OK);
            assert_int_equal(rb_shape_get_restitution(shapes[k], &e), RB_OK);
            of_type[st]++;
            bouncy |= e >= 0.8f;
            icy |= f <= 0.05f;
        }
    }
    assert_true(of_type[RB_SHAPE_SPHERE] > 0 && of_type[RB_SHAPE_CAPSULE] > 0 && of_type[RB_SHAPE_BOX] > 0);
    assert_int_equal(of_type[RB_SHAPE_PLANE], 1);
    assert_true(bouncy && icy && kinematic >= 1 && compound >= 1 && turned_static >= 1);

    // two seconds of simulated time: every body stays finite and above the floor
    for (int i = 0; i < 120; ++i)
        assert_int_equal(rb_world_step(w), RB_OK);
    rb_transform *t = malloc((size_t)c.body_slots * sizeof *t);
    assert_non_null(t);
    assert_int_equal(rb_world_get_transforms(w, 0, c.body_slots, t), RB_OK);
    for (int i = 0; i < c.body_slots; ++i) {
        assert_true(isfinite(t[i].p.x) && isfinite(t[i].p.y) && isfinite(t[i].p.z));
        assert_true(t[i].p.y > -0.5f);
    }
    free(t);
    rb_destroy_world(w);
}

// docs/scene-format.md's "complete example" is a scene that loads (so the page stays true).
static void test_the_complete_example_of_the_format_documentation_loads(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/../../docs/scene-format.md", scene_dir());
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static char doc[65536];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    char *section = strstr(doc, "## A complete example");
    assert_non_null(section);
    char *start = strstr(section, "```yaml\n");
    assert_non_null(start);
    start += strlen("```yaml\n");
    char *end = strstr(start, "```");
    assert_non_null(end);
    *end = '\0';
    rb_world_id w = new_world();
    if (rb_load_scene_text(w, start, "scene-format.md example") != RB_OK)
        fail_msg("%s", rb_last_error(w));
    // 4 listed bodies, a pyramid of base 5 (55), a pen (4), an 8 x 4 x 8 grid (256) and 2 x 1 x 2 rocks
    assert_int_equal(counters(w).bodies, 4 + 55 + 4 + 256 + 4);
    rb_destroy_world(w);
}

static void test_every_body_and_shape_key_reaches_the_created_body(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "materials:\n"
               "  rubber: {friction: 0.9, restitution: 0.7, density: 1100}\n"
               "bodies:\n"
               "  - name: probe\n"
               "    type: dynamic\n"
               "    position: [1, 2, 3]\n"
               "    rotation: {axis: [0, 1, 0], degrees: 90}\n"
               "    velocity: [4, 5, 6]\n"
               "    angular_velocity: [0.5, 0, -0.5]\n"
               "    mass: 2.5\n"
               "    damping: {linear: 0.1, angular: 0.2}\n"
               "    gravity_scale: 0.5\n"
               "    sleep: false\n"
               "    awake: true\n"
               "    shapes:\n"
               "      - sphere: {radius: 0.75}\n"
               "        material: rubber\n"
               "        friction: 0.3\n"
               "        position: [0, 0.5, 0]\n"
               "        rotation: {axis: [1, 0, 0], angle: 0.25}\n"
               "        category_bits: 2\n"
               "        mask_bits: 0xfffffffd\n");
    rb_body_id b = body_at(w, 0);
    rb_transform t;
    assert_int_equal(rb_body_get_transform(b, &t), RB_OK);
    assert_true(t.p.x == 1.0f && t.p.y == 2.0f && t.p.z == 3.0f);
    // 90° is converted to radians in double, then to float, and turned by rb_quat_from_axis_angle
    rb_quat q = rb_quat_from_axis_angle((rb_vec3){0.0f, 1.0f, 0.0f}, (float)(90.0 * (PI / 180.0)));
    assert_near(t.q.y, q.y, 1e-7);
    assert_near(t.q.w, q.w, 1e-7);
    assert_near(t.q.y, sqrt(0.5), 1e-6);
    rb_vec3 v, omega;
    assert_int_equal(rb_body_get_linear_velocity(b, &v), RB_OK);
    assert_int_equal(rb_body_get_angular_velocity(b, &omega), RB_OK);
    // `velocity` is that of the body origin; the centre of mass, r = R (0, 0.5, 0) = (0, 0.5, 0) from
    // it, moves at v + ω × r = (4, 5, 6) + (0.5, 0, -0.5) × (0, 0.5, 0) = (4.25, 5, 6.25)
    assert_near(v.x, 4.25, 1e-6);
    assert_near(v.y, 5.0, 1e-6);
    assert_near(v.z, 6.25, 1e-6);
    assert_true(omega.x == 0.5f && omega.y == 0.0f && omega.z == -0.5f);
    float mass;
    assert_int_equal(rb_body_get_mass(b, &mass), RB_OK);
    assert_true(mass == 2.5f); // the body mass overrides the density of 1100
    bool awake;
    assert_int_equal(rb_body_is_awake(b, &awake), RB_OK);
    assert_true(awake);

    rb_shape_id s = first_shape(w, 0);
    rb_sphere sphere;
    assert_int_equal(rb_shape_get_sphere(s, &sphere), RB_OK);
    assert_true(sphere.radius == 0.75f);
    float friction, restitution, density;
    assert_int_equal(rb_shape_get_friction(s, &friction), RB_OK);
    assert_int_equal(rb_shape_get_restitution(s, &restitution), RB_OK);
    assert_int_equal(rb_shape_get_density(s, &density), RB_OK);
    assert_true(friction == 0.3f);     // the inline key overrides the material
    assert_true(restitution == 0.7f);  // the rest comes from the material
    assert_true(density == 1100.0f);
    rb_transform local;
    assert_int_equal(rb_shape_get_local_transform(s, &local), RB_OK);
    assert_true(local.p.x == 0.0f && local.p.y == 0.5f && local.p.z == 0.0f);
    rb_quat lq = rb_quat_from_axis_angle((rb_vec3){1.0f, 0.0f, 0.0f}, 0.25f);
    assert_near(local.q.x, lq.x, 1e-7);
    assert_near(local.q.w, lq.w, 1e-7);
    rb_destroy_world(w);
}

static void test_every_shape_type_is_built_with_its_geometry(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "bodies:\n"
               "  - type: static\n"
               "    shapes: [{plane: {normal: [0, 2, 0], offset: 1}}]\n"
               "  - type: static\n"
               "    shapes: [{plane: {}}]\n"
               "  - shapes: [{capsule: {radius: 0.2, half_length: 0.6}}]\n"
               "  - type: kinematic\n"
               "    shapes: [{box: {half_extents: [1, 2, 3]}}]\n");
    rb_plane plane;
    assert_int_equal(rb_shape_get_plane(first_shape(w, 0), &plane), RB_OK);
    assert_near(plane.normal.y, 1.0, 0.0); // normalised: the same half-space y <= 0.5
    assert_near(plane.offset, 0.5, 1e-7);
    assert_int_equal(rb_shape_get_plane(first_shape(w, 1), &plane), RB_OK);
    assert_true(plane.normal.x == 0.0f && plane.normal.y == 1.0f && plane.offset == 0.0f); // the defaults
    rb_capsule capsule;
    assert_int_equal(rb_shape_get_capsule(first_shape(w, 2), &capsule), RB_OK);
    assert_true(capsule.radius == 0.2f && capsule.half_length == 0.6f);
    rb_box box;
    assert_int_equal(rb_shape_get_box(first_shape(w, 3), &box), RB_OK);
    assert_true(box.half_extents.x == 1.0f && box.half_extents.y == 2.0f && box.half_extents.z == 3.0f);
    rb_body_type type;
    assert_int_equal(rb_body_get_type(body_at(w, 2), &type), RB_OK);
    assert_int_equal(type, RB_BODY_DYNAMIC); // the file's default type
    assert_int_equal(rb_body_get_type(body_at(w, 3), &type), RB_OK);
    assert_int_equal(type, RB_BODY_KINEMATIC);
    // no density and no mass: 1000 kg/m³ · (4/3 π 0.2³ + π 0.2² · 1.2)
    float mass;
    assert_int_equal(rb_body_get_mass(body_at(w, 2), &mass), RB_OK);
    assert_near(mass, 1000.0 * (4.0 / 3.0 * PI * 0.008 + PI * 0.04 * 1.2), 0.01);
    rb_destroy_world(w);
}

static void test_world_settings_are_applied(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    bd.is_awake = false;
    rb_body_id sleeper;
    rb_shape_id shape;
    rb_sphere sphere = {0.5f};
    rb_shape_def sd = rb_default_shape_def();
    assert_int_equal(rb_create_body(w, &bd, &sleeper), RB_OK);
    assert_int_equal(rb_create_sphere_shape(sleeper, &sd, &sphere, &shape), RB_OK);
    assert_int_equal(rb_body_set_awake(sleeper, false), RB_OK);

    load_ok(w, "rubble-scene: 1\n"
               "world:\n"
               "  gravity: [0, -1.62, 0]\n"
               "  time_step: 0.005\n"
               "  substeps: 4\n"
               "  iterations: 20\n"
               "  position_iterations: 2\n"
               "  solver: batched\n"
               "  restitution_threshold: 0.25\n"
               "  sleep: false\n");
    rb_vec3 g;
    float dt;
    int substeps;
    assert_int_equal(rb_world_get_gravity(w, &g), RB_OK);
    assert_true(g.x == 0.0f && g.y == -1.62f && g.z == 0.0f);
    assert_int_equal(rb_world_get_time_step(w, &dt, &substeps), RB_OK);
    assert_true(dt == 0.005f);
    assert_int_equal(substeps, 4);
    rb_world_info info;
    assert_int_equal(rb_world_get_info(w, &info), RB_OK);
    assert_string_equal(info.solver, "batched");
    rb_world_def def;
    assert_int_equal(rb_world_get_def(w, &def), RB_OK);
    assert_true(def.restitution_threshold == 0.25f);
    // sleeping switched off wakes every body
    bool awake;
    assert_int_equal(rb_body_is_awake(sleeper, &awake), RB_OK);
    assert_true(awake);
    assert_int_equal(counters(w).bodies, 1); // a file without bodies adds none
    rb_destroy_world(w);
}

static void test_quaternion_rotation_is_taken_as_given(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "bodies:\n"
               "  - rotation: {quaternion: [0, 0.6, 0, 0.8]}\n"
               "    shapes: [{box: {half_extents: [1, 1, 1]}}]\n");
    rb_quat q;
    assert_int_equal(rb_body_get_rotation(body_at(w, 0), &q), RB_OK);
    assert_near(q.x, 0.0, 0.0);
    assert_near(q.y, 0.6, 1e-7);
    assert_near(q.w, 0.8, 1e-7);
    rb_destroy_world(w);
}

static void test_json_text_loads_like_the_same_yaml(void **state)
{
    (void)state;
    rb_world_id a = new_world(), b = new_world();
    load_ok(a, "{\"rubble-scene\": 1, \"seed\": 3,\n"
               " \"bodies\": [{\"type\": \"static\", \"shapes\": [{\"plane\": {\"normal\": [0, 1, 0]}}]}],\n"
               " \"generators\": [{\"grid\": {\"count\": [2, 3, 2], \"spacing\": [1, 1, 1],\n"
               "   \"jitter\": [0.1, 0.1, 0.1], \"shape\": {\"sphere\": {\"radius\": 0.4}}}}]}\n");
    load_ok(b, "rubble-scene: 1\n"
               "seed: 3\n"
               "bodies:\n"
               "  - type: static\n"
               "    shapes: [{plane: {normal: [0, 1, 0]}}]\n"
               "generators:\n"
               "  - grid:\n"
               "      count: [2, 3, 2]\n"
               "      spacing: [1, 1, 1]\n"
               "      jitter: [0.1, 0.1, 0.1]\n"
               "      shape: {sphere: {radius: 0.4}}\n");
    assert_int_equal(counters(a).bodies, 13);
    rb_transform ta[13], tb[13];
    assert_int_equal(rb_world_get_transforms(a, 0, 13, ta), RB_OK);
    assert_int_equal(rb_world_get_transforms(b, 0, 13, tb), RB_OK);
    assert_memory_equal(ta, tb, sizeof ta);
    rb_destroy_world(a);
    rb_destroy_world(b);
}

static void test_generators_share_one_lcg_stream_in_file_order(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    // grid A draws once per body for x (2 bodies), then grid B draws for x and then z
    load_ok(w, "rubble-scene: 1\n"
               "seed: 5\n"
               "generators:\n"
               "  - grid: {count: [1, 1, 2], spacing: [1, 1, 0], jitter: [0.5, 0, 0],\n"
               "           shape: {sphere: {radius: 0.1}}}\n"
               "  - pen: {half_width: 20, height: 2}\n"
               "  - grid: {count: [1, 1, 1], spacing: [1, 1, 1], jitter: [0.25, 0, 0.125],\n"
               "           shape: {sphere: {radius: 0.1}}}\n");
    uint64_t s = 5;
    double a0 = (2.0 * lcg_draw(&s) - 1.0) * 0.5, a1 = (2.0 * lcg_draw(&s) - 1.0) * 0.5;
    double bx = (2.0 * lcg_draw(&s) - 1.0) * 0.25, bz = (2.0 * lcg_draw(&s) - 1.0) * 0.125;
    rb_vec3 p;
    assert_int_equal(rb_body_get_position(body_at(w, 0), &p), RB_OK);
    assert_true(p.x == (float)a0);
    assert_int_equal(rb_body_get_position(body_at(w, 1), &p), RB_OK);
    assert_true(p.x == (float)a1);
    // the pen (slots 2 - 5) draws nothing
    assert_int_equal(rb_body_get_position(body_at(w, 6), &p), RB_OK);
    assert_true(p.x == (float)bx);
    assert_true(p.z == (float)bz);
    assert_true(p.y == 0.0f);
    rb_destroy_world(w);
}

static void test_velocity_jitter_draws_after_the_position_and_rotation(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    // per body: x jitter, 4 rotation draws, then vx and vz (vy has amplitude 0: no draw)
    load_ok(w, "rubble-scene: 1\n"
               "seed: 9\n"
               "world: {gravity: [0, 0, 0]}\n"
               "generators:\n"
               "  - grid: {count: [1, 1, 2], spacing: [1, 1, 1], jitter: [0.1, 0, 0], random_rotation: true,\n"
               "           velocity_jitter: [2, 0, 0.5], shape: {sphere: {radius: 0.1}}}\n");
    uint64_t s = 9;
    for (int i = 0; i < 2; ++i) {
        for (int k = 0; k < 5; ++k)
            lcg_draw(&s);
        double vx = (2.0 * lcg_draw(&s) - 1.0) * 2.0, vz = (2.0 * lcg_draw(&s) - 1.0) * 0.5;
        rb_vec3 v;
        assert_int_equal(rb_body_get_linear_velocity(body_at(w, i), &v), RB_OK);
        assert_true(v.x == (float)vx);
        assert_true(v.y == 0.0f);
        assert_true(v.z == (float)vz);
    }
    // they move with it: zero gravity, nothing in the way
    rb_vec3 p0, v0, p1;
    assert_int_equal(rb_body_get_position(body_at(w, 0), &p0), RB_OK);
    assert_int_equal(rb_body_get_linear_velocity(body_at(w, 0), &v0), RB_OK);
    for (int k = 0; k < 60; ++k)
        assert_int_equal(rb_world_step(w), RB_OK);
    assert_int_equal(rb_body_get_position(body_at(w, 0), &p1), RB_OK);
    assert_near(p1.x - p0.x, v0.x * 1.0, 1e-4);
    rb_destroy_world(w);
}

static void test_event_switches_gravity_on_at_its_time_and_wakes_the_bodies(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    // Schornbaum's zero-g cage: no gravity for 0.5 s, then g; the ball sleeps in the meantime
    load_ok(w, "rubble-scene: 1\n"
               "world: {gravity: [0, 0, 0], time_step: 0.02, sleep: true}\n"
               "bodies:\n"
               "  - {position: [0, 5, 0], shapes: [{sphere: {radius: 0.5}}]}\n"
               "events:\n"
               "  - {time: 0.5, gravity: [0, -10, 0]}\n");
    rb_body_id b = body_at(w, 0);
    for (int k = 0; k < 25; ++k) // t = 0 .. 0.48: the steps that start before 0.5 s
        assert_int_equal(rb_world_step(w), RB_OK);
    rb_vec3 p, g;
    assert_int_equal(rb_body_get_position(b, &p), RB_OK);
    assert_true(p.y == 5.0f);
    bool awake = true;
    assert_int_equal(rb_body_is_awake(b, &awake), RB_OK);
    assert_false(awake); // asleep before the switch
    assert_int_equal(rb_world_get_gravity(w, &g), RB_OK);
    assert_true(g.y == 0.0f);
    // the step that starts at 0.5 s runs under g and wakes the ball: 10 steps later it falls at
    // 10 g h (semi-implicit Euler)
    for (int k = 0; k < 10; ++k)
        assert_int_equal(rb_world_step(w), RB_OK);
    assert_int_equal(rb_world_get_gravity(w, &g), RB_OK);
    assert_true(g.y == -10.0f);
    rb_vec3 v;
    assert_int_equal(rb_body_get_linear_velocity(b, &v), RB_OK);
    assert_near(v.y, -10.0 * 10 * 0.02, 1e-4);
    rb_destroy_world(w);
}

static void test_seed_defaults_to_1_and_changes_the_jitter(void **state)
{
    (void)state;
    const char *grid = "generators:\n"
                       "  - grid: {count: [3, 1, 3], spacing: [1, 1, 1], jitter: [0.1, 0.1, 0.1],\n"
                       "           shape: {sphere: {radius: 0.3}}}\n";
    char text[512];
    rb_world_id w[3] = {new_world(), new_world(), new_world()};
    for (int i = 0; i < 3; ++i) {
        const char *seed = i == 0 ? "" : i == 1 ? "seed: 1\n" : "seed: 2\n";
        snprintf(text, sizeof text, "rubble-scene: 1\n%s%s", seed, grid);
        load_ok(w[i], text);
    }
    rb_transform t[3][9];
    for (int i = 0; i < 3; ++i)
        assert_int_equal(rb_world_get_transforms(w[i], 0, 9, t[i]), RB_OK);
    assert_memory_equal(t[0], t[1], sizeof t[0]);
    assert_true(t[0][0].p.x != t[2][0].p.x);
    for (int i = 0; i < 3; ++i)
        rb_destroy_world(w[i]);
}

static void test_listed_bodies_are_created_before_generators_wherever_the_keys_are(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "generators:\n"
               "  - pyramid: {base: 2, shape: {box: {half_extents: [0.5, 0.5, 0.5]}}}\n"
               "bodies:\n"
               "  - {name: first, position: [0, 10, 0], shapes: [{sphere: {radius: 1}}]}\n"
               "rubble-scene: 1\n");
    rb_vec3 p;
    assert_int_equal(counters(w).bodies, 6);
    assert_int_equal(rb_body_get_position(body_at(w, 0), &p), RB_OK);
    assert_true(p.y == 10.0f);
    // then the pyramid: layer 0 is 2 x 2 at y = 0.5, its top cube at y = 1.5 last
    assert_int_equal(rb_body_get_position(body_at(w, 1), &p), RB_OK);
    assert_true(p.x == -0.5f && p.y == 0.5f && p.z == -0.5f);
    assert_int_equal(rb_body_get_position(body_at(w, 5), &p), RB_OK);
    assert_true(p.x == 0.0f && p.y == 1.5f && p.z == 0.0f);
    rb_destroy_world(w);
}

static void test_materials_may_come_after_the_shapes_that_name_them(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "generators:\n"
               "  - ground: {material: ice}\n"
               "  - pen: {half_width: 5, height: 1, material: ice, restitution: 0.5}\n"
               "materials:\n"
               "  ice: {friction: 0.02}\n");
    float f, e;
    assert_int_equal(rb_shape_get_friction(first_shape(w, 0), &f), RB_OK);
    assert_true(f == 0.02f);
    assert_int_equal(rb_shape_get_friction(first_shape(w, 4), &f), RB_OK);
    assert_int_equal(rb_shape_get_restitution(first_shape(w, 4), &e), RB_OK);
    assert_true(f == 0.02f && e == 0.5f);
    rb_destroy_world(w);
}

static void test_anchors_and_aliases_reuse_a_definition(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "bodies:\n"
               "  - {position: [0, 1, 0], shapes: [&crate {box: {half_extents: [0.3, 0.2, 0.1]}, density: 500}]}\n"
               "  - {position: [0, 2, 0], shapes: [*crate]}\n");
    rb_box box;
    float density;
    assert_int_equal(rb_shape_get_box(first_shape(w, 1), &box), RB_OK);
    assert_int_equal(rb_shape_get_density(first_shape(w, 1), &density), RB_OK);
    assert_true(box.half_extents.x == 0.3f && box.half_extents.y == 0.2f && box.half_extents.z == 0.1f);
    assert_true(density == 500.0f);
    rb_destroy_world(w);
}

static void test_text_is_named_in_messages_by_the_name_given(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    assert_int_equal(rb_load_scene_text(w, "rubble-scene: 1\nbogus: 1\n", "my-scene"), RB_ERR_PARSE);
    assert_contains(rb_last_error(w), "my-scene:2:1: unknown key 'bogus' in the top level; expected one of: ");
    assert_int_equal(rb_load_scene_text(w, "rubble-scene: 1\nbogus: 1\n", NULL), RB_ERR_PARSE);
    assert_contains(rb_last_error(w), "<text>:2:1: ");
    rb_destroy_world(w);
}

// ---- malformed files: each fails with its location, and the world is as it was ----

static void test_truncated_file_fails_where_the_text_ends(void **state)
{
    (void)state;
    expect_failure(data_path("truncated.yaml"), NULL, RB_ERR_PARSE,
                   "truncated.yaml:5:21: YAML syntax error: did not find expected node content");
    expect_failure(data_path("truncated.yaml"), NULL, RB_ERR_PARSE, "is the file cut short?");
    // cut after a key inside a block mapping
    expect_failure(NULL, "rubble-scene: 1\nworld:\n  gravity: [0, -9.81, 0]\n  time_step", RB_ERR_PARSE,
                   "inline:4:12: YAML syntax error: could not find expected ':'");
}

static void test_bad_indentation_fails_with_its_line_and_column(void **state)
{
    (void)state;
    expect_failure(data_path("bad_indentation.yaml"), NULL, RB_ERR_PARSE,
                   "bad_indentation.yaml:5:2: YAML syntax error: did not find expected key");
    // a tab is not indentation in YAML
    expect_failure(NULL, "rubble-scene: 1\nworld:\n\tgravity: [0, -9.81, 0]\n", RB_ERR_PARSE,
                   "inline:3:1: YAML syntax error: found character that cannot start any token");
}

static void test_unknown_key_names_the_key_its_place_and_the_keys_expected(void **state)
{
    (void)state;
    expect_failure(data_path("unknown_key.yaml"), NULL, RB_ERR_PARSE,
                   "unknown_key.yaml:6:18: unknown key 'radiuss' in sphere; expected one of: radius");
    expect_failure(NULL, "rubble-scene: 1\ngenerators:\n  - sphere_grid: {}\n", RB_ERR_PARSE,
                   "inline:3:5: unknown key 'sphere_grid' in generator; expected one of: grid, pyramid, pen, ground");
    // the message names every solver the library accepts (it named only three of the five)
    expect_failure(NULL, "rubble-scene: 1\nworld: {solver: jacobi}\n", RB_ERR_PARSE,
                   "inline:2:17: world solver: unknown solver 'jacobi'; expected default, soft, batched, split or "
                   "sequential");
}

static void test_wrong_types_say_what_was_expected_and_what_was_found(void **state)
{
    (void)state;
    expect_failure(data_path("wrong_type.yaml"), NULL, RB_ERR_PARSE,
                   "wrong_type.yaml:4:12: world gravity: expected a sequence of 3 numbers [x, y, z], got a mapping");
    expect_failure(NULL, "rubble-scene: 1\nbodies:\n  - shapes: [{sphere: {radius: abc}}]\n", RB_ERR_PARSE,
                   "inline:3:32: sphere radius: expected a number, got the string 'abc'");
    expect_failure(NULL, "rubble-scene: 1\nworld: {time_step: \"0.01\"}\n", RB_ERR_PARSE,
                   "inline:2:20: world time_step: expected a number, got the string '0.01'");
    expect_failure(NULL, "rubble-scene: 1\nworld: {sleep: 1}\n", RB_ERR_PARSE,
                   "inline:2:16: world sleep: expected true or false, got the number 1");
    expect_failure(NULL, "rubble-scene: 1\nbodies:\n  - shapes: {sphere: {radius: 1}}\n", RB_ERR_PARSE,
                   "inline:3:13: body shapes: expected a sequence");
    expect_failure(NULL,
                   "rubble-scene: 1\ngenerators:\n  - grid: {count: [2, -1, 2], spacing: [1, 1, 1], "
                   "shape: {sphere: {radius: 1}}}\n",
                   RB_ERR_INVALID_ARGUMENT, "inline:3:23: grid count must be >= 0, got -1");
    expect_failure(NULL, "rubble-scene: 1\nworld: {gravity: [0, -9.81]}\n", RB_ERR_PARSE,
                   "inline:2:18: world gravity: expected a sequence of 3 numbers [x, y, z], got 2 items");
    expect_failure(NULL,
                   "rubble-scene: 1\ngenerators:\n  - grid: {count: [1.5, 1, 1], spacing: [1, 1, 1], "
                   "shape: {sphere: {radius: 1}}}\n",
                   RB_ERR_PARSE, "inline:3:20: grid count: expected an integer, got the number 1.5");
    expect_failure(NULL, "rubble-scene: 1\nbodies:\n  - type: floating\n    shapes: [{sphere: {radius: 1}}]\n",
                   RB_ERR_PARSE, "inline:3:11: body type: expected static, kinematic or dynamic, got 'floating'");
    expect_failure(NULL, "rubble-scene: 1\nbodies:\n  - shapes:\n      - sphere:\n        radius: 1\n", RB_ERR_PARSE,
                   "inline:5:9: unknown key 'radius' in shape");
    expect_failure(NULL, "rubble-scene: 1\nbodies:\n  - shapes: [{sphere: ~}]\n", RB_ERR_PARSE,
                   "inline:3:23: sphere: expected a mapping");
}

static void test_bad_events_and_velocity_jitter_are_rejected(void **state)
{
    (void)state;
    expect_failure(NULL, "rubble-scene: 1\nevents:\n  - {time: -1, gravity: [0, -10, 0]}\n", RB_ERR_INVALID_ARGUMENT,
                   "event time must be in [0, 1e9]");
    expect_failure(NULL, "rubble-scene: 1\nevents:\n  - {time: 1}\n", RB_ERR_PARSE, "gravity");
    expect_failure(NULL, "rubble-scene: 1\nevents:\n  - {time: 1, gravity: [0, -10, 0], wind: 3}\n", RB_ERR_PARSE,
                   "wind");
    expect_failure(NULL,
                   "rubble-scene: 1\ngenerators:\n  - grid: {count: [1, 1, 1], spacing: [1, 1, 1],\n"
                   "           velocity_jitter: [0, -1, 0], shape: {sphere: {radius: 0.1}}}\n",
                   RB_ERR_INVALID_ARGUMENT, "velocity_jitter must be in [0, 1e6]");
}

static void test_negative_radius_is_rejected_at_its_shape(void **state)
{
    (void)state;
    expect_failure(data_path("negative_radius.yaml"), NULL, RB_ERR_INVALID_ARGUMENT,
                   "negative_radius.yaml:7:9: body 'ball': sphere radius must be finite, > 0");
    expect_failure(data_path("negative_radius.yaml"), NULL, RB_ERR_INVALID_ARGUMENT, "got -0.5");
    expect_failure(NULL, "rubble-scene: 1\nbodies:\n  - shapes: [{capsule: {radius: 0.5, half_length: -1}}]\n",
                   RB_ERR_INVALID_ARGUMENT, "inline:3:14: capsule half_length must be");
}

static void test_nan_and_infinity_are_rejected_where_they_are_written(void **state)
{
    (void)state;
    expect_failure(data_path("nan.yaml"), NULL, RB_ERR_INVALID_ARGUMENT,
                   "nan.yaml:4:19: body position.y must be a finite number, got .nan");
    expect_failure(data_path("inf.yaml"), NULL, RB_ERR_INVALID_ARGUMENT,
                   "inf.yaml:5:33: box half_extents.y must be a finite number, got .inf");
    expect_failure(NULL, "rubble-scene: 1\nworld: {gravity: [0, -.Inf, 0]}\n", RB_ERR_INVALID_ARGUMENT,
                   "inline:2:22: world gravity.y must be a finite number, got -.Inf");
    expect_failure(NULL, "rubble-scene: 1\nworld: {time_step: 1e39}\n", RB_ERR_INVALID_ARGUMENT,
                   "inline:2:20: world time_step must be a finite 32-bit float, got 1e39");
}

static void test_dynamic_body_with_density_0_and_no_mass_is_rejected(void **state)
{
    (void)state;
    expect_failure(data_path("zero_mass.yaml"), NULL, RB_ERR_INVALID_ARGUMENT,
                   "zero_mass.yaml:7:9: a dynamic body needs a mass > 0");
    expect_failure(NULL, "rubble-scene: 1\nbodies:\n  - mass: 0\n    shapes: [{sphere: {radius: 1}}]\n",
                   RB_ERR_INVALID_ARGUMENT, "inline:3:11: body mass must be > 0, got 0");
}

static void test_huge_counts_are_refused_before_anything_is_created(void **state)
{
    (void)state;
    expect_failure(data_path("huge_count.yaml"), NULL, RB_ERR_CAPACITY,
                   "huge_count.yaml:6:14: grid count 100000 x 100000 x 100000 = 1000000000000000 bodies is more than "
                   "the limit");
    // two grids each under the limit of 20,000,000 bodies, together over it: refused at the second
    expect_failure(NULL,
                   "rubble-scene: 1\ngenerators:\n"
                   "  - grid: {count: [5000, 1, 3000], spacing: [1, 1, 1], shape: {sphere: {radius: 0.1}}}\n"
                   "  - grid: {count: [5000, 1, 3000], spacing: [1, 1, 1], shape: {sphere: {radius: 0.1}}}\n",
                   RB_ERR_CAPACITY, "inline:4:19: this grid would bring the scene to 30000000 bodies");
    expect_failure(NULL, "rubble-scene: 1\ngenerators:\n  - pyramid: {base: 1000000, shape: {box: {half_extents: [1, 1, 1]}}}\n",
                   RB_ERR_CAPACITY, "inline:3:21: pyramid base must be at most 100000, got 1000000");
}

static void test_unknown_material_lists_the_materials_there_are(void **state)
{
    (void)state;
    expect_failure(data_path("unknown_material.yaml"), NULL, RB_ERR_PARSE,
                   "unknown_material.yaml:9:19: unknown material 'steel'; expected one of the names under "
                   "'materials': ice, wood");
}

static void test_duplicate_key_is_an_error_at_its_second_occurrence(void **state)
{
    (void)state;
    expect_failure(data_path("duplicate_key.yaml"), NULL, RB_ERR_PARSE,
                   "duplicate_key.yaml:7:5: duplicate key 'position' in body");
    expect_failure(NULL, "rubble-scene: 1\nmaterials:\n  ice: {friction: 0.1}\n  wood: {}\n  ice: {friction: 0.2}\n",
                   RB_ERR_PARSE, "inline:5:3: duplicate material 'ice'");
}

static void test_file_without_the_header_is_not_a_scene(void **state)
{
    (void)state;
    expect_failure(data_path("missing_header.yaml"), NULL, RB_ERR_PARSE,
                   "missing_header.yaml:2:1: not a rubble scene file: there is no 'rubble-scene' key");
    expect_failure(NULL, "rubble-scene: 2\n", RB_ERR_PARSE,
                   "inline:1:15: scene format version 2 is not supported; expected 'rubble-scene: 1'");
    expect_failure(NULL, "- rubble-scene: 1\n", RB_ERR_PARSE,
                   "inline:1:1: expected a mapping that starts with 'rubble-scene: 1', got a sequence");
    expect_failure(NULL, "rubble-scene: 1\n---\nrubble-scene: 1\n", RB_ERR_PARSE,
                   "inline:3:1: a second YAML document starts here");
}

static void test_empty_file_is_rejected(void **state)
{
    (void)state;
    expect_failure(data_path("empty.yaml"), NULL, RB_ERR_PARSE, "empty.yaml:1:1: the scene file is empty");
    expect_failure(NULL, "# nothing but a comment\n", RB_ERR_PARSE, "inline:1:1: the scene file is empty");
}

static void test_missing_file_is_an_io_error_naming_the_path_and_the_reason(void **state)
{
    (void)state;
    const char *path = data_path("no-such-scene.yaml");
    char expected[1200];
    snprintf(expected, sizeof expected, "cannot open scene file '%s': %s", path, strerror(ENOENT));
    expect_failure(path, NULL, RB_ERR_IO, expected);
}

static void test_directory_is_an_io_error(void **state)
{
    (void)state;
    char expected[1200];
    snprintf(expected, sizeof expected, "cannot read scene file '%s': %s", data_dir(), strerror(EISDIR));
    expect_failure(data_dir(), NULL, RB_ERR_IO, expected);
}

static void test_failure_after_bodies_were_created_removes_them_and_restores_the_settings(void **state)
{
    (void)state;
    // late_failure.yaml sets gravity, time step and sleep, creates 103 bodies, then fails:
    // expect_failure checks that the bodies are gone (counts, slots reused in order), the settings
    // are back and the sleeping box of the populated world still sleeps
    expect_failure(data_path("late_failure.yaml"), NULL, RB_ERR_INVALID_ARGUMENT,
                   "late_failure.yaml:21:7: grid: sphere radius must be finite, > 0");
}

static void test_setting_the_api_rejects_points_at_its_key(void **state)
{
    (void)state;
    expect_failure(NULL, "rubble-scene: 1\nworld:\n  gravity: [0, -1, 0]\n  substeps: -1\n", RB_ERR_INVALID_ARGUMENT,
                   "inline:4:13: world substeps: substeps must be in [0, 64] (0: the solver's choice), got -1");
    expect_failure(NULL, "rubble-scene: 1\nworld:\n  restitution_threshold: -1\n", RB_ERR_INVALID_ARGUMENT,
                   "inline:3:26: world restitution_threshold: restitution_threshold must be finite and >= 0, got -1");
    expect_failure(NULL, "rubble-scene: 1\nbodies:\n  - {type: static, mass: 2, shapes: [{sphere: {radius: 1}}]}\n",
                   RB_ERR_INVALID_ARGUMENT, "inline:3:5: only dynamic bodies have a mass");
    expect_failure(NULL, "rubble-scene: 1\nbodies:\n  - {name: lid, shapes: [{plane: {}}]}\n",
                   RB_ERR_INVALID_ARGUMENT, "inline:3:26: body 'lid': plane shapes are allowed on static bodies only");
}

static void test_rotation_takes_exactly_one_form(void **state)
{
    (void)state;
    expect_failure(NULL,
                   "rubble-scene: 1\nbodies:\n  - rotation: {axis: [0, 1, 0], angle: 1, quaternion: [0, 0, 0, 1]}\n"
                   "    shapes: [{sphere: {radius: 1}}]\n",
                   RB_ERR_PARSE, "inline:3:15: body rotation: expected either 'quaternion' or 'axis'");
    expect_failure(NULL,
                   "rubble-scene: 1\nbodies:\n  - rotation: {axis: [0, 1, 0], angle: 1, degrees: 57}\n"
                   "    shapes: [{sphere: {radius: 1}}]\n",
                   RB_ERR_PARSE, "inline:3:15: body rotation: expected exactly one of 'angle' (radians) and 'degrees'");
    expect_failure(NULL,
                   "rubble-scene: 1\nbodies:\n  - rotation: {axis: [0, 0, 0], angle: 1}\n"
                   "    shapes: [{sphere: {radius: 1}}]\n",
                   RB_ERR_INVALID_ARGUMENT, "inline:3:22: body rotation axis must be a non-zero vector");
}

static void test_text_over_64_mib_is_refused(void **state)
{
    (void)state;
    size_t size = ((size_t)64 << 20) + 2;
    char *text = malloc(size);
    assert_non_null(text);
    memcpy(text, "rubble-scene: 1\n#", 17);
    memset(text + 17, 'x', size - 18);
    text[size - 1] = '\0';
    rb_world_id w = new_world();
    assert_int_equal(rb_load_scene_text(w, text, "big"), RB_ERR_CAPACITY);
    assert_contains(rb_last_error(w), "more than the limit of 64 MiB");
    assert_int_equal(counters(w).bodies, 0);
    free(text);
    rb_destroy_world(w);
}

static void test_null_arguments_and_stale_worlds_are_rejected(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    assert_int_equal(rb_load_scene(w, NULL), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_load_scene_text(w, NULL, "x"), RB_ERR_INVALID_ARGUMENT);
    rb_destroy_world(w);
    assert_int_equal(rb_load_scene_text(w, "rubble-scene: 1\n", "x"), RB_ERR_STALE_ID);
    assert_int_equal(rb_load_scene(rb_null_world_id, "x.yaml"), RB_ERR_STALE_ID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_scene_file_in_the_scene_directory_loads),
        cmocka_unit_test(test_demo_uses_every_shape_type_and_runs_two_seconds_without_trouble),
        cmocka_unit_test(test_the_complete_example_of_the_format_documentation_loads),
        cmocka_unit_test(test_every_body_and_shape_key_reaches_the_created_body),
        cmocka_unit_test(test_every_shape_type_is_built_with_its_geometry),
        cmocka_unit_test(test_world_settings_are_applied),
        cmocka_unit_test(test_quaternion_rotation_is_taken_as_given),
        cmocka_unit_test(test_json_text_loads_like_the_same_yaml),
        cmocka_unit_test(test_generators_share_one_lcg_stream_in_file_order),
        cmocka_unit_test(test_velocity_jitter_draws_after_the_position_and_rotation),
        cmocka_unit_test(test_event_switches_gravity_on_at_its_time_and_wakes_the_bodies),
        cmocka_unit_test(test_seed_defaults_to_1_and_changes_the_jitter),
        cmocka_unit_test(test_listed_bodies_are_created_before_generators_wherever_the_keys_are),
        cmocka_unit_test(test_materials_may_come_after_the_shapes_that_name_them),
        cmocka_unit_test(test_anchors_and_aliases_reuse_a_definition),
        cmocka_unit_test(test_text_is_named_in_messages_by_the_name_given),
        cmocka_unit_test(test_truncated_file_fails_where_the_text_ends),
        cmocka_unit_test(test_bad_indentation_fails_with_its_line_and_column),
        cmocka_unit_test(test_unknown_key_names_the_key_its_place_and_the_keys_expected),
        cmocka_unit_test(test_wrong_types_say_what_was_expected_and_what_was_found),
        cmocka_unit_test(test_bad_events_and_velocity_jitter_are_rejected),
        cmocka_unit_test(test_negative_radius_is_rejected_at_its_shape),
        cmocka_unit_test(test_nan_and_infinity_are_rejected_where_they_are_written),
        cmocka_unit_test(test_dynamic_body_with_density_0_and_no_mass_is_rejected),
        cmocka_unit_test(test_huge_counts_are_refused_before_anything_is_created),
        cmocka_unit_test(test_unknown_material_lists_the_materials_there_are),
        cmocka_unit_test(test_duplicate_key_is_an_error_at_its_second_occurrence),
        cmocka_unit_test(test_file_without_the_header_is_not_a_scene),
        cmocka_unit_test(test_empty_file_is_rejected),
        cmocka_unit_test(test_missing_file_is_an_io_error_naming_the_path_and_the_reason),
        cmocka_unit_test(test_directory_is_an_io_error),
        cmocka_unit_test(test_failure_after_bodies_were_created_removes_them_and_restores_the_settings),
        cmocka_unit_test(test_setting_the_api_rejects_points_at_its_key),
        cmocka_unit_test(test_rotation_takes_exactly_one_form),
        cmocka_unit_test(test_text_over_64_mib_is_refused),
        cmocka_unit_test(test_null_arguments_and_stale_worlds_are_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
