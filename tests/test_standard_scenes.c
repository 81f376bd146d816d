// The standard benchmark scenes of docs/bench-scenes.md: rb_build_standard_scene puts every body
// where the formulas say (checked here by hand, with the LCG re-derived from its definition), and the
// files data/scenes/{pyramid,stack,pile,boxes}.yaml build exactly the same worlds, bit for bit. The
// jointed scenes chain and ragdolls are checked against the numbers of bench-scenes.md, and their
// joints measured with bench/compare/joint_scenes.h, the formulas the ODE and Bullet drivers use.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../bench/compare/joint_scenes.h"
#include "../bench/compare/rocks_scene.h"
#include "rubble.h"

// ---- helpers ----

// |actual - expected| <= tol, in double (cmocka's assert_float_equal rounds its arguments to float).
#define assert_near(actual, expected, tol) assert_near_at((actual), (expected), (tol), __FILE__, __LINE__)

static void assert_near_at(double actual, double expected, double tol, const char *file, int line)
{
    if (!(fabs(actual - expected) <= tol))
        fail_msg("%s:%d: got %.9g, expected %.9g (tolerance %g)", file, line, actual, expected, tol);
}

static rb_world_id new_world(void)
{
    rb_world_def def = rb_default_world_def();
    def.backend = RB_BACKEND_CPU; // the scene's content does not depend on the backend
    def.threads = 1;
    rb_world_id w;
    assert_int_equal(rb_create_world(&def, &w), RB_OK);
    return w;
}

static void scene_path(char *buf, size_t size, const char *file)
{
    const char *dir = getenv("RUBBLE_SCENE_DIR");
    snprintf(buf, size, "%s/%s", dir ? dir : "data/scenes", file);
}

static int body_count(rb_world_id w)
{
    rb_counters c;
    assert_int_equal(rb_world_get_counters(w, &c), RB_OK);
    return c.bodies;
}

static rb_body_id body_at(rb_world_id w, int slot)
{
    rb_body_id id;
    assert_int_equal(rb_world_get_body_id(w, slot, &id), RB_OK);
    return id;
}

static rb_transform transform_at(rb_world_id w, int slot)
{
    rb_transform t;
    assert_int_equal(rb_body_get_transform(body_at(w, slot), &t), RB_OK);
    return t;
}

static rb_body_type type_at(rb_world_id w, int slot)
{
    rb_body_type t;
    assert_int_equal(rb_body_get_type(body_at(w, slot), &t), RB_OK);
    return t;
}

// The single shape of the body in `slot`.
static rb_shape_id only_shape(rb_world_id w, int slot)
{
    rb_shape_id s;
    int n = 0;
    assert_int_equal(rb_body_get_shapes(body_at(w, slot), &s, 1, &n), RB_OK);
    assert_int_equal(n, 1);
    return s;
}

static void count_types(rb_world_id w, int *statics, int *dynamics)
{
    *statics = *dynamics = 0;
    int n = body_count(w);
    for (int i = 0; i < n; ++i) {
        rb_body_type t = type_at(w, i);
        *statics += t == RB_BODY_STATIC;
        *dynamics += t == RB_BODY_DYNAMIC;
    }
}

// bench-scenes.md "Random numbers", written out again from the text rather than taken from the library.
static double lcg_draw(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0; // 2^53
}

static void assert_vec3_near(rb_vec3 v, double x, double y, double z, double tol)
{
    assert_near(v.x, x, tol);
    assert_near(v.y, y, tol);
    assert_near(v.z, z, tol);
}

static void assert_standard_material(rb_shape_id s)
{
    float f, e;
    assert_int_equal(rb_shape_get_friction(s, &f), RB_OK);
    assert_int_equal(rb_shape_get_restitution(s, &e), RB_OK);
    assert_true(f == 0.6f);
    assert_true(e == 0.0f);
}

static void assert_unit_mass(rb_world_id w, int slot)
{
    float m;
    assert_int_equal(rb_body_get_mass(body_at(w, slot), &m), RB_OK);
    assert_true(m == 1.0f);
}

// ---- every body of two worlds, compared bit for bit ----

static void assert_same_shape(rb_shape_id a, rb_shape_id b)
{
    rb_shape_type ta, tb;
    assert_int_equal(rb_shape_get_type(a, &ta), RB_OK);
    assert_int_equal(rb_shape_get_type(b, &tb), RB_OK);
    assert_int_equal(ta, tb);
    switch (ta) {
    case RB_SHAPE_SPHERE: {
        rb_sphere ga, gb;
        assert_int_equal(rb_shape_get_sphere(a, &ga), RB_OK);
        assert_int_equal(rb_shape_get_sphere(b, &gb), RB_OK);
        assert_memory_equal(&ga, &gb, sizeof ga);
        break;
    }
    case RB_SHAPE_CAPSULE: {
        rb_capsule ga, gb;
        assert_int_equal(rb_shape_get_capsule(a, &ga), RB_OK);
        assert_int_equal(rb_shape_get_capsule(b, &gb), RB_OK);
        assert_memory_equal(&ga, &gb, sizeof ga);
        break;
    }
    case RB_SHAPE_BOX: {
        rb_box ga, gb;
        assert_int_equal(rb_shape_get_box(a, &ga), RB_OK);
        assert_int_equal(rb_shape_get_box(b, &gb), RB_OK);
        assert_memory_equal(&ga, &gb, sizeof ga);
        break;
    }
    case RB_SHAPE_PLANE: {
        rb_plane ga, gb;
        assert_int_equal(rb_shape_get_plane(a, &ga), RB_OK);
        assert_int_equal(rb_shape_get_plane(b, &gb), RB_OK);
        assert_memory_equal(&ga, &gb, sizeof ga);
        break;
    }
    case RB_SHAPE_CONVEX: { // the hulls are each world's own: the same vertices
        rb_convex ga, gb;
        assert_int_equal(rb_shape_get_convex(a, &ga), RB_OK);
        assert_int_equal(rb_shape_get_convex(b, &gb), RB_OK);
        assert_memory_equal(&ga.radius, &gb.radius, sizeof ga.radius);
        rb_vec3 va[64], vb[64];
        int na = 0, nb = 0;
        assert_int_equal(rb_hull_get_vertices(ga.hull, va, 64, &na), RB_OK);
        assert_int_equal(rb_hull_get_vertices(gb.hull, vb, 64, &nb), RB_OK);
        assert_int_equal(na, nb);
        assert_memory_equal(va, vb, sizeof va[0] * (size_t)na);
        break;
    }
    }
    rb_transform la, lb;
    assert_int_equal(rb_shape_get_local_transform(a, &la), RB_OK);
    assert_int_equal(rb_shape_get_local_transform(b, &lb), RB_OK);
    assert_memory_equal(&la, &lb, sizeof la);
    float fa[3], fb[3];
    assert_int_equal(rb_shape_get_friction(a, &fa[0]), RB_OK);
    assert_int_equal(rb_shape_get_restitution(a, &fa[1]), RB_OK);
    assert_int_equal(rb_shape_get_density(a, &fa[2]), RB_OK);
    assert_int_equal(rb_shape_get_friction(b, &fb[0]), RB_OK);
    assert_int_equal(rb_shape_get_restitution(b, &fb[1]), RB_OK);
    assert_int_equal(rb_shape_get_density(b, &fb[2]), RB_OK);
    assert_memory_equal(fa, fb, sizeof fa);
}

static void assert_same_worlds(rb_world_id a, rb_world_id b)
{
    rb_counters ca, cb;
    assert_int_equal(rb_world_get_counters(a, &ca), RB_OK);
    assert_int_equal(rb_world_get_counters(b, &cb), RB_OK);
    assert_int_equal(ca.bodies, cb.bodies);
    assert_int_equal(ca.shapes, cb.shapes);
    assert_int_equal(ca.body_slots, cb.body_slots);
    int n = ca.body_slots;

    rb_transform *ta = malloc((size_t)n * sizeof *ta), *tb = malloc((size_t)n * sizeof *tb);
    rb_vec3 *va = malloc((size_t)n * 2 * sizeof *va), *vb = malloc((size_t)n * 2 * sizeof *vb);
    assert_non_null(ta);
    assert_non_null(tb);
    assert_non_null(va);
    assert_non_null(vb);
    assert_int_equal(rb_world_get_transforms(a, 0, n, ta), RB_OK);
    assert_int_equal(rb_world_get_transforms(b, 0, n, tb), RB_OK);
    assert_memory_equal(ta, tb, (size_t)n * sizeof *ta);
    assert_int_equal(rb_world_get_velocities(a, 0, n, va, va + n), RB_OK);
    assert_int_equal(rb_world_get_velocities(b, 0, n, vb, vb + n), RB_OK);
    assert_memory_equal(va, vb, (size_t)n * 2 * sizeof *va);
    free(ta);
    free(tb);
    free(va);
    free(vb);

    for (int i = 0; i < n; ++i) {
        rb_body_id ia = body_at(a, i), ib = body_at(b, i);
        assert_int_equal(type_at(a, i), type_at(b, i));
        rb_mass_data ma, mb;
        assert_int_equal(rb_body_get_mass_data(ia, &ma), RB_OK);
        assert_int_equal(rb_body_get_mass_data(ib, &mb), RB_OK);
        assert_memory_equal(&ma, &mb, sizeof ma);
        rb_shape_id sa[8], sb[8];
        int na = 0, nb = 0;
        assert_int_equal(rb_body_get_shapes(ia, sa, 8, &na), RB_OK);
        assert_int_equal(rb_body_get_shapes(ib, sb, 8, &nb), RB_OK);
        assert_int_equal(na, nb);
        for (int k = 0; k < na && k < 8; ++k)
            assert_same_shape(sa[k], sb[k]);
    }

    rb_vec3 ga, gb;
    assert_int_equal(rb_world_get_gravity(a, &ga), RB_OK);
    assert_int_equal(rb_world_get_gravity(b, &gb), RB_OK);
    assert_memory_equal(&ga, &gb, sizeof ga);
    float dta, dtb;
    int sa_, sb_;
    assert_int_equal(rb_world_get_time_step(a, &dta, &sa_), RB_OK);
    assert_int_equal(rb_world_get_time_step(b, &dtb, &sb_), RB_OK);
    assert_true(dta == dtb);
    assert_int_equal(sa_, sb_);
}

static void assert_file_equals_builtin(const char *file, const char *scene)
{
    char path[1024];
    scene_path(path, sizeof path, file);
    rb_world_id from_file = new_world(), built = new_world();
    rb_status s = rb_load_scene(from_file, path);
    if (s != RB_OK)
        fail_msg("loading %s: %s", path, rb_last_error(from_file));
    assert_int_equal(rb_build_standard_scene(built, scene, 1), RB_OK);
    assert_same_worlds(from_file, built);
    rb_destroy_world(from_file);
    rb_destroy_world(built);
}

// ---- the files reproduce the built-in scenes ----

static void test_pyramid_file_builds_exactly_the_builtin_pyramid(void **state)
{
    (void)state;
    assert_file_equals_builtin("pyramid.yaml", "pyramid");
}

static void test_stack_file_builds_exactly_the_builtin_stack(void **state)
{
    (void)state;
    assert_file_equals_builtin("stack.yaml", "stack");
}

static void test_pile_file_builds_exactly_the_builtin_pile_jitter_included(void **state)
{
    (void)state;
    assert_file_equals_builtin("pile.yaml", "pile");
}

static void test_boxes_file_builds_exactly_the_builtin_boxes_rotations_included(void **state)
{
    (void)state;
    assert_file_equals_builtin("boxes.yaml", "boxes");
}

static void test_rocks_file_builds_exactly_the_builtin_rocks(void **state)
{
    (void)state;
    assert_file_equals_builtin("rocks.yaml", "rocks");
}

// ---- the built-in scenes follow docs/bench-scenes.md ----

static void test_pyramid_has_385_unit_cubes_in_ten_layers_with_the_top_cube_last(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    assert_int_equal(rb_build_standard_scene(w, "pyramid", 1), RB_OK);
    // 10² + 9² + ... + 1² = 385 cubes, after the ground plane in slot 0
    assert_int_equal(body_count(w), 386);
    int statics, dynamics;
    count_types(w, &statics, &dynamics);
    assert_int_equal(statics, 1);
    assert_int_equal(dynamics, 385);

    rb_plane ground;
    assert_int_equal(rb_shape_get_plane(only_shape(w, 0), &ground), RB_OK);
    assert_vec3_near(ground.normal, 0.0, 1.0, 0.0, 0.0);
    assert_true(ground.offset == 0.0f);

    // slot 1: layer 0, i = j = 0, n = 10: (0 - 4.5, 0.5, 0 - 4.5)
    assert_vec3_near(transform_at(w, 1).p, -4.5, 0.5, -4.5, 0.0);
    // layer k = 2 (n = 8), i = 3, j = 7: slot 1 + 100 + 81 + 3·8 + 7 = 213 at (3 - 3.5, 2.5, 7 - 3.5)
    assert_vec3_near(transform_at(w, 213).p, -0.5, 2.5, 3.5, 0.0);
    // the top cube, layer 9 (n = 1), is the last body: (0, 9.5, 0), axis-aligned
    rb_transform top = transform_at(w, 385);
    assert_vec3_near(top.p, 0.0, 9.5, 0.0, 0.0);
    assert_true(top.q.x == 0.0f && top.q.y == 0.0f && top.q.z == 0.0f && top.q.w == 1.0f);

    rb_box cube;
    assert_int_equal(rb_shape_get_box(only_shape(w, 385), &cube), RB_OK);
    assert_vec3_near(cube.half_extents, 0.5, 0.5, 0.5, 0.0);
    assert_standard_material(only_shape(w, 385));
    assert_standard_material(only_shape(w, 0));
    assert_unit_mass(w, 385);

    rb_vec3 g;
    assert_int_equal(rb_world_get_gravity(w, &g), RB_OK);
    assert_vec3_near(g, 0.0, -9.81f, 0.0, 0.0);
    rb_destroy_world(w);
}

static void test_stack_is_a_column_of_20_unit_cubes_resting_on_the_ground(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    assert_int_equal(rb_build_standard_scene(w, "stack", 1), RB_OK);
    assert_int_equal(body_count(w), 21);
    int statics, dynamics;
    count_types(w, &statics, &dynamics);
    assert_int_equal(statics, 1);
    assert_int_equal(dynamics, 20);
    for (int k = 0; k < 20; ++k) {
        // cube k: (0, 0.5 + k, 0); the bottom one touches the plane y = 0
        assert_vec3_near(transform_at(w, 1 + k).p, 0.0, 0.5 + k, 0.0, 0.0);
        assert_unit_mass(w, 1 + k);
    }
    rb_destroy_world(w);
}

// The pen's four walls: 1 m thick, y from 0 to 30, inner faces at ±half_width, 2·half_width + 2 long.
static void assert_pen(rb_world_id w, int first_slot, double half_width)
{
    double c = half_width + 0.5, len = half_width + 1.0;
    for (int i = 0; i < 4; ++i) {
        int slot = first_slot + i;
        assert_int_equal(type_at(w, slot), RB_BODY_STATIC);
        rb_vec3 p = transform_at(w, slot).p;
        rb_box box;
        assert_int_equal(rb_shape_get_box(only_shape(w, slot), &box), RB_OK);
        assert_near(box.half_extents.y, 15.0, 0.0);
        assert_near(p.y, 15.0, 0.0);
        if (fabsf(p.x) > 0.0f) { // normal to x: at x = ±(hw + 0.5), 1 m thick, 2 hw + 2 long in z
            assert_near(fabs(p.x), c, 1e-5);
            assert_near(p.z, 0.0, 0.0);
            assert_near(box.half_extents.x, 0.5, 0.0);
            assert_near(box.half_extents.z, len, 1e-5);
        } else { // normal to z
            assert_near(fabs(p.z), c, 1e-5);
            assert_near(box.half_extents.z, 0.5, 0.0);
            assert_near(box.half_extents.x, len, 1e-5);
        }
        // inner face exactly at ±half_width
        assert_near(fabs(p.x) + fabs(p.z) - 0.5, half_width, 1e-5);
    }
}

static void test_pile_puts_8000_jittered_spheres_in_a_pen_of_four_walls(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    assert_int_equal(rb_build_standard_scene(w, "pile", 1), RB_OK);
    // ground, 4 walls, 8000 spheres
    assert_int_equal(body_count(w), 8005);
    int statics, dynamics;
    count_types(w, &statics, &dynamics);
    assert_int_equal(statics, 5);
    assert_int_equal(dynamics, 8000);
    assert_pen(w, 1, 12.0);
    // two walls 26 m long in z, two 26 m long in x
    rb_box wall;
    assert_int_equal(rb_shape_get_box(only_shape(w, 1), &wall), RB_OK);
    assert_near(2.0 * wall.half_extents.z, 26.0, 0.0);

    // first sphere (iy = ix = iz = 0): two draws of the LCG from state₀ = 1 give jx, then jz
    uint64_t state_ = 1;
    double jx = (2.0 * lcg_draw(&state_) - 1.0) * 0.05;
    double jz = (2.0 * lcg_draw(&state_) - 1.0) * 0.05;
    assert_true(fabs(jx) <= 0.05 && fabs(jz) <= 0.05 && jx != jz);
    rb_vec3 p = transform_at(w, 5).p;
    assert_near(p.x, (0 - 9.5) * 1.1 + jx, 2e-6);
    assert_near(p.y, 1.0, 0.0);
    assert_near(p.z, (0 - 9.5) * 1.1 + jz, 2e-6);
    // second sphere (iz = 1) takes the next two draws
    double jx2 = (2.0 * lcg_draw(&state_) - 1.0) * 0.05;
    double jz2 = (2.0 * lcg_draw(&state_) - 1.0) * 0.05;
    p = transform_at(w, 6).p;
    assert_near(p.x, -9.5 * 1.1 + jx2, 2e-6);
    assert_near(p.z, (1 - 9.5) * 1.1 + jz2, 2e-6);
    // the last sphere (iy = ix = iz = 19) is at the top: y = 1.0 + 19 · 1.1 = 21.9
    p = transform_at(w, 8004).p;
    assert_near(p.y, 21.9, 2e-6);
    assert_near(p.x, 9.5 * 1.1, 0.051);

    rb_sphere ball;
    assert_int_equal(rb_shape_get_sphere(only_shape(w, 5), &ball), RB_OK);
    assert_true(ball.radius == 0.5f);
    assert_standard_material(only_shape(w, 5));
    assert_unit_mass(w, 5);
    assert_unit_mass(w, 8004);
    rb_destroy_world(w);
}

static void test_boxes_turns_each_of_4096_cubes_by_four_lcg_draws(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    assert_int_equal(rb_build_standard_scene(w, "boxes", 1), RB_OK);
    assert_int_equal(body_count(w), 4101);
    int statics, dynamics;
    count_types(w, &statics, &dynamics);
    assert_int_equal(statics, 5);
    assert_int_equal(dynamics, 4096);
    assert_pen(w, 1, 12.0);

    // first cube at (0 - 7.5, 1.0, 0 - 7.5), turned by axis = normalize(2u-1, 2u-1, 2u-1), angle π u
    uint64_t state_ = 1;
    double ax = 2.0 * lcg_draw(&state_) - 1.0, ay = 2.0 * lcg_draw(&state_) - 1.0;
    double az = 2.0 * lcg_draw(&state_) - 1.0, angle = 3.14159265358979323846 * lcg_draw(&state_);
    double len = sqrt(ax * ax + ay * ay + az * az), sn = sin(0.5 * angle) / len;
    rb_transform t = transform_at(w, 5);
    assert_vec3_near(t.p, -7.5, 1.0, -7.5, 0.0);
    assert_near(t.q.x, ax * sn, 1e-6);
    assert_near(t.q.y, ay * sn, 1e-6);
    assert_near(t.q.z, az * sn, 1e-6);
    assert_near(t.q.w, cos(0.5 * angle), 1e-6);
    // the last cube: (15 - 7.5, 1 + 15, 15 - 7.5)
    assert_vec3_near(transform_at(w, 4100).p, 7.5, 16.0, 7.5, 0.0);

    rb_box cube;
    assert_int_equal(rb_shape_get_box(only_shape(w, 5), &cube), RB_OK);
    assert_vec3_near(cube.half_extents, 0.25, 0.25, 0.25, 0.0);
    assert_unit_mass(w, 5);
    rb_destroy_world(w);
}

static void test_rocks_are_4096_hulls_of_twelve_drawn_points_with_their_exact_solid_inertia(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    assert_int_equal(rb_build_standard_scene(w, "rocks", 1), RB_OK);
    assert_int_equal(body_count(w), 4101);
    int statics, dynamics, hulls = 0;
    count_types(w, &statics, &dynamics);
    assert_int_equal(statics, 5);
    assert_int_equal(dynamics, 4096);
    assert_int_equal(rb_world_get_hull_count(w, &hulls), RB_OK);
    assert_int_equal(hulls, 4096); // one hull per rock
    assert_pen(w, 1, 12.0);
    // body b (slot 5 + b) against bench/compare/rocks_scene.h, the peers' own draws: its position and
    // orientation, every hull vertex one of its 12 points, the mass 1 kg and the inertia of the solid
    uint64_t rng = 1;
    for (int b = 0; b < ROCKS_BODIES; ++b) {
        double pts[ROCKS_POINTS][3], q[4], c[3];
        rocks_draw_body(&rng, pts, q);
        if (b % 97 != 0 && b != ROCKS_BODIES - 1)
            continue;
        rocks_body_center(b, c);
        rb_transform t = transform_at(w, 5 + b);
        assert_vec3_near(t.p, c[0], c[1], c[2], 1e-6);
        double sign = q[0] * t.q.w + q[1] * t.q.x + q[2] * t.q.y + q[3] * t.q.z < 0.0 ? -1.0 : 1.0;
        assert_near(t.q.w, sign * q[0], 3e-7);
        assert_near(t.q.x, sign * q[1], 3e-7);
        rb_convex cv;
        assert_int_equal(rb_shape_get_convex(only_shape(w, 5 + b), &cv), RB_OK);
        rb_vec3 v[64];
        int n = 0;
        assert_int_equal(rb_hull_get_vertices(cv.hull, v, 64, &n), RB_OK);
        assert_true(n >= 4 && n <= ROCKS_POINTS);
        for (int i = 0; i < n; ++i) {
            int found = 0;
            for (int j = 0; j < ROCKS_POINTS; ++j)
                found |= v[i].x == (float)pts[j][0] && v[i].y == (float)pts[j][1] && v[i].z == (float)pts[j][2];
            assert_true(found);
        }
        rocks_hull rh;
        rocks_mass rm;
        assert_true(rocks_hull_build(&pts[0][0], ROCKS_POINTS, &rh));
        rocks_mass_properties(&rh, 1.0, &rm);
        assert_int_equal(n, rh.vertex_count);
        rb_mass_data md;
        rb_body_id body;
        assert_int_equal(rb_world_get_body_id(w, 5 + b, &body), RB_OK);
        assert_int_equal(rb_body_get_mass_data(body, &md), RB_OK);
        assert_near(md.mass, 1.0, 1e-6);
        double scale = rm.principal[2];
        assert_near(md.inertia.x, rm.inertia[0][0], 1e-5 * scale);
        assert_near(md.inertia.y, rm.inertia[1][1], 1e-5 * scale);
        assert_near(md.inertia.z, rm.inertia[2][2], 1e-5 * scale);
        assert_near(md.inertia_products.x, rm.inertia[0][1], 1e-5 * scale);
        assert_near(md.inertia_products.y, rm.inertia[0][2], 1e-5 * scale);
        assert_near(md.inertia_products.z, rm.inertia[1][2], 1e-5 * scale);
    }
    rb_destroy_world(w);
}

static void test_pile_70_has_98000_spheres_in_a_pen_at_42_m(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    assert_int_equal(rb_build_standard_scene(w, "pile:70", 1), RB_OK);
    // 70 x 70 x 20 = 98,000 spheres; pen inner faces at ±12 · 70 / 20 = ±42 m
    assert_int_equal(body_count(w), 98005);
    assert_pen(w, 1, 42.0);
    // x centred: the first sphere at (0 - 34.5) · 1.1 ± 0.05
    rb_vec3 p = transform_at(w, 5).p;
    assert_near(p.x, -34.5 * 1.1, 0.0501);
    assert_near(p.y, 1.0, 0.0);
    assert_near(transform_at(w, 98004).p.y, 21.9, 2e-6);
    rb_destroy_world(w);
}

static void test_pile_20_is_the_same_scene_as_pile(void **state)
{
    (void)state;
    rb_world_id a = new_world(), b = new_world();
    assert_int_equal(rb_build_standard_scene(a, "pile:20", 1), RB_OK);
    assert_int_equal(rb_build_standard_scene(b, "pile", 1), RB_OK);
    assert_same_worlds(a, b);
    rb_destroy_world(a);
    rb_destroy_world(b);
}

static void test_standard_scenes_set_gravity_even_when_the_world_had_another(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    assert_int_equal(rb_world_set_gravity(w, (rb_vec3){1.0f, 2.0f, 3.0f}), RB_OK);
    assert_int_equal(rb_build_standard_scene(w, "stack", 1), RB_OK);
    rb_vec3 g;
    assert_int_equal(rb_world_get_gravity(w, &g), RB_OK);
    assert_vec3_near(g, 0.0, -9.81f, 0.0, 0.0);
    rb_destroy_world(w);
}

static void test_unknown_standard_scene_names_fail_and_add_nothing(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    const char *bad[] = {"pyramids", "", "Pile", "pile:", "pile:0", "pile:1001", "pile:7x", "pile:-3", "box"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(rb_build_standard_scene(w, bad[i], 1), RB_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(rb_last_error(w), "unknown standard scene"));
        assert_int_equal(body_count(w), 0);
    }
    assert_int_equal(rb_build_standard_scene(w, NULL, 1), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(body_count(w), 0);
    rb_destroy_world(w);
}

static void test_another_seed_moves_the_jitter_but_not_the_grid(void **state)
{
    (void)state;
    rb_world_id a = new_world(), b = new_world();
    assert_int_equal(rb_build_standard_scene(a, "pile", 1), RB_OK);
    assert_int_equal(rb_build_standard_scene(b, "pile", 2), RB_OK);
    rb_vec3 pa = transform_at(a, 5).p, pb = transform_at(b, 5).p;
    assert_true(pa.x != pb.x);
    assert_near(pa.x, pb.x, 0.1); // both within ±0.05 of the same grid point
    assert_true(pa.y == pb.y);
    rb_destroy_world(a);
    rb_destroy_world(b);
}

// ---- the jointed scenes ----

static rb_world_id new_jointed_world(const char *scene)
{
    rb_world_def def = rb_default_world_def();
    def.backend = RB_BACKEND_CPU; // the figures below are the CPU solver's
    def.threads = 1;
    def.enable_sleep = false; // as `rubble bench` runs them
    rb_world_id w;
    assert_int_equal(rb_create_world(&def, &w), RB_OK);
    assert_int_equal(rb_build_standard_scene(w, scene, 1), RB_OK);
    return w;
}

static int joint_count(rb_world_id w)
{
    int n = -1;
    assert_int_equal(rb_world_get_joint_count(w, &n), RB_OK);
    return n;
}

static void assert_mass_data(rb_world_id w, int slot, double mass, double ixz, double iy)
{
    rb_mass_data m;
    assert_int_equal(rb_body_get_mass_data(body_at(w, slot), &m), RB_OK);
    assert_near(m.mass, mass, 0.0);
    assert_vec3_near(m.center, 0.0, 0.0, 0.0, 0.0);
    assert_vec3_near(m.inertia, ixz, iy, ixz, 1e-7);
}

// The scene's poses read back (rubble's quaternion is x, y, z, w; the scene's w, x, y, z), measured
// with joint_scenes.h. The scene's bodies are the world's last `s->body_count` slots.
static scn_quality measure_jointed(rb_world_id w, const scn_scene *s)
{
    int n = s->body_count, first = body_count(w) - n;
    rb_transform *t = malloc((size_t)n * sizeof *t);
    rb_vec3 *v = malloc((size_t)n * 2 * sizeof *v);
    scn_pose *p = malloc((size_t)n * sizeof *p);
    assert_non_null(t);
    assert_non_null(v);
    assert_non_null(p);
    assert_int_equal(rb_world_get_transforms(w, first, n, t), RB_OK);
    assert_int_equal(rb_world_get_velocities(w, first, n, v, v + n), RB_OK);
    for (int i = 0; i < n; ++i) {
        p[i].position = scn_v3(t[i].p.x, t[i].p.y, t[i].p.z);
        p[i].orientation = scn_q(t[i].q.w, t[i].q.x, t[i].q.y, t[i].q.z);
        p[i].velocity = scn_v3(v[i].x, v[i].y, v[i].z);
    }
    scn_quality q;
    scn_measure(s, p, &q);
    free(t);
    free(v);
    free(p);
    return q;
}

static void test_chain_is_40_capsule_links_and_a_20_kg_sphere_on_41_ball_joints_without_ground(void **state)
{
    (void)state;
    rb_world_id w = new_jointed_world("chain");
    // no ground: 41 dynamic bodies and nothing else
    assert_int_equal(body_count(w), 41);
    int statics, dynamics;
    count_types(w, &statics, &dynamics);
    assert_int_equal(statics, 0);
    assert_int_equal(dynamics, 41);
    assert_int_equal(joint_count(w), 41);

    // link k: capsule r 0.1, L 0.5 (half length 0.25 along local y), at (0.35 + 0.7k, 30, 0), turned -90°
    // about z so that its axis lies along world x
    double h = sqrt(0.5);
    for (int k = 0; k < 40; k += 13) {
        rb_transform t = transform_at(w, k);
        assert_vec3_near(t.p, 0.35 + 0.7 * k, 30.0, 0.0, 1e-5);
        assert_near(t.q.z, -h, 1e-7);
        assert_near(t.q.w, h, 1e-7);
        rb_capsule c;
        assert_int_equal(rb_shape_get_capsule(only_shape(w, k), &c), RB_OK);
        assert_near(c.radius, 0.1, 1e-8);
        assert_near(c.half_length, 0.25, 0.0);
        assert_standard_material(only_shape(w, k));
        // the solid capsule: m_c = 0.5 / (0.5 + 0.4/3) = 0.7895 kg in the cylinder, the rest in the caps
        assert_mass_data(w, k, 1.0, 0.036368421, 0.004789474);
    }
    // the sphere: r 0.5, 20 kg, I = 2/5 m r² = 2 kg m², at (28.5, 30, 0)
    assert_vec3_near(transform_at(w, 40).p, 28.5, 30.0, 0.0, 0.0);
    rb_sphere ball;
    assert_int_equal(rb_shape_get_sphere(only_shape(w, 40), &ball), RB_OK);
    assert_true(ball.radius == 0.5f);
    assert_mass_data(w, 40, 20.0, 2.0, 2.0);

    // joint 0 holds link 0 to the static world; joint k links body k - 1 to body k; all are balls
    rb_joint_id joints[41];
    int n = 0;
    assert_int_equal(rb_world_get_joints(w, joints, 41, &n), RB_OK);
    assert_int_equal(n, 41);
    for (int k = 0; k < 41; ++k) {
        rb_joint_type type;
        rb_body_id a, b;
        assert_int_equal(rb_joint_get_type(joints[k], &type), RB_OK);
        assert_int_equal(type, RB_JOINT_BALL);
        assert_int_equal(rb_joint_get_bodies(joints[k], &a, &b), RB_OK);
        assert_true(rb_body_equal(b, body_at(w, k)));
        assert_true(k == 0 ? rb_body_equal(a, rb_null_body_id) : rb_body_equal(a, body_at(w, k - 1)));
    }
    rb_destroy_world(w);
}

static void test_chain_holds_together_in_its_first_step_and_never_stretches_8_percent(void **state)
{
    (void)state;
    rb_world_id w = new_jointed_world("chain");
    scn_scene s;
    assert_true(scn_make("chain", &s));
    // released at rest, it falls 0.5 g t² = 1.4 mm in the first 1/60 s; its joints must not open up
    assert_int_equal(rb_world_step(w), RB_OK);
    scn_quality q = measure_jointed(w, &s);
    assert_true(q.max_joint_error < 1e-3);
    assert_true(fabs(q.stretch) < 1e-4);
    // the 10 s of the standard run: the 20 kg sphere swings on 28.5 m of chain. At the soft solver's 4
    // substeps its joints are springs of 60 Hz (docs/joints.md): 5.7% at most (ODE and Bullet: 51-52%);
    // with 16 substeps, the next test, within 1%
    scn_run run;
    scn_run_init(&run);
    scn_run_add(&run, &q);
    for (int i = 1; i < 600; ++i) {
        assert_int_equal(rb_world_step(w), RB_OK);
        q = measure_jointed(w, &s);
        scn_run_add(&run, &q);
    }
    print_message("chain: largest stretch %.4f over 10 s\n", run.max_stretch);
    assert_true(run.max_stretch < 0.08);
    assert_int_equal(q.escaped, 0);
    assert_true(q.min_y < 29.0); // it swung down
    scn_free(&s);
    rb_destroy_world(w);
}

// The standard run with 16 substeps (bench-scenes.md allows and counts them: `rubble bench --scene chain
// --substeps 16`): the soft solver's joints stiffen with the substeps (a quarter of the substep rate,
// 240 Hz), and the chain stays within 1% of its length over the 10 s with every anchor gap under 5 mm at
// the end, the aims.
static void test_chain_at_16_substeps_stays_within_1_percent_and_5_mm(void **state)
{
    (void)state;
    rb_world_id w = new_jointed_world("chain");
    assert_int_equal(rb_world_set_time_step(w, 1.0f / 60.0f, 16), RB_OK);
    scn_scene s;
    assert_true(scn_make("chain", &s));
    scn_run run;
    scn_run_init(&run);
    scn_quality q;
    for (int i = 0; i < 600; ++i) {
        assert_int_equal(rb_world_step(w), RB_OK);
        q = measure_jointed(w, &s);
        scn_run_add(&run, &q);
    }
    print_message("chain at 16 substeps: largest stretch %.5f and largest gap %.2f mm over 10 s, gap %.2f mm at the end\n",
                  run.max_stretch, 1000.0 * run.max_joint_error, 1000.0 * q.max_joint_error);
    assert_true(run.max_stretch < 0.01);
    assert_true(q.max_joint_error < 0.005);
    assert_int_equal(q.escaped, 0);
    assert_true(q.min_y < 29.0); // it swung down
    scn_free(&s);
    rb_destroy_world(w);
}

static void test_ragdolls_are_136_ragdolls_of_11_capsules_and_10_joints_on_the_ground(void **state)
{
    (void)state;
    rb_world_id w = new_jointed_world("ragdolls");
    // 16 rows of 16 - r ragdolls: 136 ragdolls, 1496 bodies, 1360 joints, after the ground plane
    assert_int_equal(body_count(w), 1497);
    int statics, dynamics;
    count_types(w, &statics, &dynamics);
    assert_int_equal(statics, 1);
    assert_int_equal(dynamics, 1496);
    assert_int_equal(joint_count(w), 1360);
    rb_plane ground;
    assert_int_equal(rb_shape_get_plane(only_shape(w, 0), &ground), RB_OK);
    assert_vec3_near(ground.normal, 0.0, 1.0, 0.0, 0.0);
    assert_true(ground.offset == 0.0f);

    // ragdoll 0 at o = (-48, 1, 0): the pelvis (slot 1) at o + (0, 3.5, 0), a capsule r 0.525, L 0.7
    assert_vec3_near(transform_at(w, 1).p, -48.0, 4.5, 0.0, 0.0);
    rb_capsule c;
    assert_int_equal(rb_shape_get_capsule(only_shape(w, 1), &c), RB_OK);
    assert_near(c.radius, 0.525, 1e-7);
    assert_near(c.half_length, 0.35, 1e-7);
    assert_mass_data(w, 1, 1.0, 0.240151042, 0.124031250);
    assert_standard_material(only_shape(w, 1));
    // ragdoll 135, the last (row 15) at o = (-3, 106, -30): its right lower arm, slot 1 + 11·135 + 10,
    // at o + (2.45, 5.075, 0), turned -90° about z
    rb_transform arm = transform_at(w, 1496);
    assert_vec3_near(arm.p, -3.0 + 2.45, 106.0 + 5.075, -30.0, 1e-5);
    assert_near(arm.q.z, -sqrt(0.5), 1e-7);
    assert_mass_data(w, 1496, 1.0, 0.099731827, 0.009455385);

    // Bullet's damping 0.05 and 0.85: the velocities are scaled by (1 - d)^(1/60) per 1/60 s step, here
    // by 1 / (1 + h c) in each of the step's n substeps
    float dt, lin, ang;
    int n;
    assert_int_equal(rb_world_get_time_step(w, &dt, &n), RB_OK);
    assert_int_equal(rb_body_get_linear_damping(body_at(w, 1), &lin), RB_OK);
    assert_int_equal(rb_body_get_angular_damping(body_at(w, 1), &ang), RB_OK);
    assert_near(pow(1.0 + (double)dt / n * lin, -n), 0.999145477, 1e-8);
    assert_near(pow(1.0 + (double)dt / n * ang, -n), 0.968875977, 1e-8);

    // joints 10d + j: hinges at j = 0, 3, 5, 7, 9, cone-twists at the rest; every hinge angle and twist
    // is 0 at creation
    rb_joint_id *joints = malloc(1360 * sizeof *joints);
    assert_non_null(joints);
    int count = 0;
    assert_int_equal(rb_world_get_joints(w, joints, 1360, &count), RB_OK);
    assert_int_equal(count, 1360);
    for (int k = 0; k < count; k += 7) {
        rb_joint_type type;
        assert_int_equal(rb_joint_get_type(joints[k], &type), RB_OK);
        int j = k % 10;
        bool hinge = j == 0 || j == 3 || j == 5 || j == 7 || j == 9;
        assert_int_equal(type, hinge ? RB_JOINT_HINGE : RB_JOINT_CONE_TWIST);
        float coordinate;
        assert_int_equal(rb_joint_get_coordinate(joints[k], &coordinate), RB_OK);
        assert_near(coordinate, 0.0, 1e-6);
    }
    // joint 7 (left elbow) of ragdoll 0 links the left upper arm (slot 8) to the left lower arm (slot 9)
    rb_body_id a, b;
    assert_int_equal(rb_joint_get_bodies(joints[7], &a, &b), RB_OK);
    assert_true(rb_body_equal(a, body_at(w, 8)));
    assert_true(rb_body_equal(b, body_at(w, 9)));
    // θ is B relative to A about ẑ: the left knee (joint 3, ẑ = (1, 0, 0)) with the lower leg (slot 5)
    // turned by +0.3 rad about x reads +0.3, beyond its upper stop at 0
    rb_transform shin = transform_at(w, 5);
    shin.q = (rb_quat){(float)sin(0.15), 0.0f, 0.0f, (float)cos(0.15)};
    assert_int_equal(rb_body_set_transform(body_at(w, 5), shin.p, shin.q), RB_OK);
    float knee;
    assert_int_equal(rb_joint_get_coordinate(joints[3], &knee), RB_OK);
    assert_near(knee, 0.3, 1e-5);
    free(joints);
    rb_destroy_world(w);
}

static void test_ragdolls_pull_their_anchors_together_and_fall_without_coming_apart(void **state)
{
    (void)state;
    rb_world_id w = new_jointed_world("ragdolls");
    scn_scene s;
    assert_true(scn_make("ragdolls", &s));
    // at creation the anchors of a shoulder are 0.3654 m apart, and the scene must not have snapped them
    scn_quality q = measure_jointed(w, &s);
    assert_near(q.max_joint_error, 0.3654, 1e-3);
    // a quarter of a second later the joints have closed the gaps, before row 0 lands (t ≈ 0.42 s)
    for (int i = 0; i < 15; ++i)
        assert_int_equal(rb_world_step(w), RB_OK);
    q = measure_jointed(w, &s);
    assert_true(q.max_joint_error < 5e-3);
    assert_true(q.max_limit_violation < 0.035);
    // 10 s: every row has landed (the last at t ≈ 4.8 s, 42 m/s) and the ragdolls lie on the ground,
    // in one piece and within their joints' limits
    for (int i = 15; i < 600; ++i)
        assert_int_equal(rb_world_step(w), RB_OK);
    q = measure_jointed(w, &s);
    assert_int_equal(q.escaped, 0);
    assert_true(q.min_y > 0.0);
    assert_true(q.max_joint_error < 0.01);
    assert_true(q.max_limit_violation < 0.035);
    scn_free(&s);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pyramid_file_builds_exactly_the_builtin_pyramid),
        cmocka_unit_test(test_stack_file_builds_exactly_the_builtin_stack),
        cmocka_unit_test(test_pile_file_builds_exactly_the_builtin_pile_jitter_included),
        cmocka_unit_test(test_boxes_file_builds_exactly_the_builtin_boxes_rotations_included),
        cmocka_unit_test(test_pyramid_has_385_unit_cubes_in_ten_layers_with_the_top_cube_last),
        cmocka_unit_test(test_stack_is_a_column_of_20_unit_cubes_resting_on_the_ground),
        cmocka_unit_test(test_pile_puts_8000_jittered_spheres_in_a_pen_of_four_walls),
        cmocka_unit_test(test_boxes_turns_each_of_4096_cubes_by_four_lcg_draws),
        cmocka_unit_test(test_rocks_file_builds_exactly_the_builtin_rocks),
        cmocka_unit_test(test_rocks_are_4096_hulls_of_twelve_drawn_points_with_their_exact_solid_inertia),
        cmocka_unit_test(test_pile_70_has_98000_spheres_in_a_pen_at_42_m),
        cmocka_unit_test(test_pile_20_is_the_same_scene_as_pile),
        cmocka_unit_test(test_standard_scenes_set_gravity_even_when_the_world_had_another),
        cmocka_unit_test(test_unknown_standard_scene_names_fail_and_add_nothing),
        cmocka_unit_test(test_another_seed_moves_the_jitter_but_not_the_grid),
        cmocka_unit_test(test_chain_is_40_capsule_links_and_a_20_kg_sphere_on_41_ball_joints_without_ground),
        cmocka_unit_test(test_chain_holds_together_in_its_first_step_and_never_stretches_8_percent),
        cmocka_unit_test(test_chain_at_16_substeps_stays_within_1_percent_and_5_mm),
        cmocka_unit_test(test_ragdolls_are_136_ragdolls_of_11_capsules_and_10_joints_on_the_ground),
        cmocka_unit_test(test_ragdolls_pull_their_anchors_together_and_fall_without_coming_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
