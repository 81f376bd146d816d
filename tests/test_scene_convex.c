// Convex hulls in scene files (docs/scene-format.md, "hulls", "convex", "rocks"): named hulls shared by
// every shape that names them, a shape's own hull from its points, the rounding radius, one hull for an
// inline convex reached again through an alias, the rocks generator drawing exactly the bodies of the
// bench scene rocks (bench/compare/rocks_scene.h, which the peer engines run), data/scenes/rocks.yaml
// and convex-demo.yaml, and malformed hulls refused with FILE:LINE:COLUMN and the reason while the
// world stays as it was: no body, shape or hull of the failed load is left.
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

#include "../bench/compare/rocks_scene.h"

// ---- helpers ----

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

// The one shape of the body in `slot`, which must be convex.
static rb_convex convex_at(rb_world_id w, int slot)
{
    rb_shape_id s;
    int n = 0;
    assert_int_equal(rb_body_get_shapes(body_at(w, slot), &s, 1, &n), RB_OK);
    assert_int_equal(n, 1);
    rb_shape_type type;
    assert_int_equal(rb_shape_get_type(s, &type), RB_OK);
    assert_int_equal(type, RB_SHAPE_CONVEX);
    rb_convex c;
    assert_int_equal(rb_shape_get_convex(s, &c), RB_OK);
    assert_true(rb_hull_is_valid(c.hull));
    return c;
}

static bool same_hull(rb_hull_id a, rb_hull_id b)
{
    return a.index1 == b.index1 && a.world0 == b.world0 && a.generation == b.generation;
}

// Every live hull of the world, found by trying every id of the first `slots` slots (the API has no
// list of hulls): the hulls no shape uses are counted too, so a hull a failed load left behind shows.
#define MAX_LIVE 64
typedef struct hull_set {
    int count;
    rb_hull_id ids[MAX_LIVE];
} hull_set;

static hull_set live_hulls_in(rb_world_id w, int slots)
{
    hull_set s = {0};
    for (int32_t index1 = 1; index1 <= slots; ++index1)
        for (uint32_t gen = 0; gen <= 0xffffu; ++gen) {
            rb_hull_id id = {index1, (uint16_t)(w.index1 - 1), (uint16_t)gen};
            if (rb_hull_is_valid(id)) {
                assert_true(s.count < MAX_LIVE);
                s.ids[s.count++] = id;
            }
        }
    return s;
}

static hull_set live_hulls(rb_world_id w) { return live_hulls_in(w, MAX_LIVE); }

static int vertices_of(rb_hull_id h, rb_vec3 *out, int capacity)
{
    int n = 0;
    assert_int_equal(rb_hull_get_vertices(h, out, capacity, &n), RB_OK);
    assert_true(n <= capacity);
    return n;
}

static rb_hull_info info_of(rb_hull_id h)
{
    rb_hull_info i;
    assert_int_equal(rb_hull_get_info(h, &i), RB_OK);
    return i;
}

// ---- named hulls, inline points, radius ----

static const char SHARED[] =
    "rubble-scene: 1\n"
    "hulls:\n"
    "  tetra: {points: [[0.2, 0.2, 0.2], [0.2, -0.2, -0.2], [-0.2, 0.2, -0.2], [-0.2, -0.2, 0.2]]}\n"
    "  cube:\n"
    "    points: [[-0.5, -0.5, -0.5], [0.5, -0.5, -0.5], [-0.5, 0.5, -0.5], [0.5, 0.5, -0.5],\n"
    "             [-0.5, -0.5, 0.5], [0.5, -0.5, 0.5], [-0.5, 0.5, 0.5], [0.5, 0.5, 0.5],\n"
    "             [0, 0, 0], [0.1, 0.2, -0.3]]\n" // inside: not vertices
    "  spare: {points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}\n" // no shape names it
    "bodies:\n"
    "  - {type: static, shapes: [{plane: {}}]}\n"
    "  - {position: [0, 1, 0], shapes: [{convex: {hull: tetra}}]}\n"
    "  - {position: [1, 1, 0], shapes: [{convex: {hull: cube, radius: 0.1}}]}\n"
    "  - {position: [2, 1, 0], shapes: [{convex: {hull: tetra}}]}\n"
    "  - {position: [3, 1, 0], shapes: [{convex: {hull: cube}}]}\n"
    "generators:\n"
    "  - grid: {count: [3, 1, 2], spacing: [1, 1, 1], center: [0, 3, 0], shape: {convex: {hull: tetra}}}\n";

static void test_named_hulls_are_shared_by_every_shape_that_names_them(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, SHARED);
    rb_counters c = counters(w);
    assert_int_equal(c.bodies, 1 + 4 + 6);
    assert_int_equal(c.shapes, 1 + 4 + 6);

    rb_convex tetra = convex_at(w, 1), cube = convex_at(w, 2);
    assert_false(same_hull(tetra.hull, cube.hull));
    assert_true(same_hull(convex_at(w, 3).hull, tetra.hull));
    assert_true(same_hull(convex_at(w, 4).hull, cube.hull));
    for (int slot = 5; slot < 11; ++slot) // the grid's bodies
        assert_true(same_hull(convex_at(w, slot).hull, tetra.hull));
    // the radius is the shape's own: the same hull, rounded on one body and sharp on the other
    assert_true(convex_at(w, 2).radius == 0.1f);
    assert_true(convex_at(w, 4).radius == 0.0f);
    assert_true(convex_at(w, 1).radius == 0.0f);

    // two hulls in the world: 'spare', which no shape names, was built (it is checked) but not kept
    hull_set live = live_hulls(w);
    assert_int_equal(live.count, 2);

    rb_hull_info t = info_of(tetra.hull), k = info_of(cube.hull);
    assert_int_equal(t.vertex_count, 4);
    assert_int_equal(t.face_count, 4);
    assert_int_equal(k.vertex_count, 8); // the two inner points are not vertices
    assert_near(k.volume, 1.0, 1e-5);
    assert_near(t.volume, 0.4 * 0.4 * 0.4 / 3.0, 1e-6);

    // the masses follow from the hulls: density 1000, the cube rounded by 0.1 m (Steiner's formula:
    // V + S r + M r^2 + 4/3 pi r^3, M = 12 edges x 1 m x pi/2 / 2... = 3 pi for the unit cube)
    float m_sharp, m_round;
    assert_int_equal(rb_body_get_mass(body_at(w, 4), &m_sharp), RB_OK);
    assert_int_equal(rb_body_get_mass(body_at(w, 2), &m_round), RB_OK);
    assert_near(m_sharp, 1000.0, 0.01);
    double r = 0.1, v = 1.0 + 6.0 * r + 3.0 * PI * r * r + 4.0 / 3.0 * PI * r * r * r;
    assert_near(m_round, 1000.0 * v, 0.05);
    rb_destroy_world(w);
}

static void test_inline_points_make_a_hull_of_the_shapes_own_and_an_alias_shares_it(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    load_ok(w, "rubble-scene: 1\n"
               "bodies:\n"
               "  - position: [0, 1, 0]\n"
               "    shapes:\n"
               "      - convex: &wedge {points: [[-0.4, 0, -0.25], [0.4, 0, -0.25], [-0.4, 0, 0.25], [0.4, 0, 0.25],\n"
               "                                 [-0.4, 0.3, -0.25], [-0.4, 0.3, 0.25]], radius: 0.02}\n"
               "        density: 500\n"
               "  - {position: [2, 1, 0], shapes: [{convex: *wedge}]}\n"
               "  - position: [4, 1, 0]\n"
               "    shapes:\n"
               "      - convex: {points: [[-0.4, 0, -0.25], [0.4, 0, -0.25], [-0.4, 0, 0.25], [0.4, 0, 0.25],\n"
               "                          [-0.4, 0.3, -0.25], [-0.4, 0.3, 0.25]], max_vertices: 6,\n"
               "                 weld_distance: 0.001}\n");
    rb_convex a = convex_at(w, 0), b = convex_at(w, 1), c = convex_at(w, 2);
    assert_true(same_hull(a.hull, b.hull));  // the same node, through an alias: one hull
    assert_false(same_hull(a.hull, c.hull)); // the same points written again: a hull of its own
    assert_true(a.radius == 0.02f && b.radius == 0.02f && c.radius == 0.0f);
    assert_int_equal(live_hulls(w).count, 2);

    // a wedge: 6 vertices (the points exactly), volume 0.8 x 0.5 x 0.3 / 2
    rb_vec3 v[64];
    int n = vertices_of(c.hull, v, 64);
    assert_int_equal(n, 6);
    static const float expect[6][3] = {{-0.4f, 0, -0.25f}, {0.4f, 0, -0.25f}, {-0.4f, 0, 0.25f},
                                       {0.4f, 0, 0.25f},   {-0.4f, 0.3f, -0.25f}, {-0.4f, 0.3f, 0.25f}};
    for (int i = 0; i < 6; ++i) {
        bool found = false;
        for (int j = 0; j < n && !found; ++j)
            found = v[j].x == expect[i][0] && v[j].y == expect[i][1] && v[j].z == expect[i][2];
        assert_true(found);
    }
    rb_hull_info info = info_of(c.hull);
    assert_near(info.volume, 0.8 * 0.5 * 0.3 / 2.0, 1e-6);
    float m;
    assert_int_equal(rb_body_get_mass(body_at(w, 2), &m), RB_OK);
    assert_near(m, 1000.0 * info.volume, 1e-3); // the default density
    rb_destroy_world(w);
}

// ---- the rocks generator ----

// The world's rock in `slot` is reference rock b: its place, turn, hull (vertices exactly the drawn
// points that rocks_hull_build finds on the hull, as floats), mass and inertia.
static void assert_reference_rock(rb_world_id w, int slot, int b, double pts[ROCKS_POINTS][3], const double q[4],
                                  bool check_place)
{
    rb_body_id body = body_at(w, slot);
    rb_transform t;
    assert_int_equal(rb_body_get_transform(body, &t), RB_OK);
    if (check_place) {
        double c[3];
        rocks_body_center(b, c);
        if (!(t.p.x == (float)c[0] && t.p.y == (float)c[1] && t.p.z == (float)c[2]))
            fail_msg("rock %d at (%.9g, %.9g, %.9g), expected (%.9g, %.9g, %.9g)", b, t.p.x, t.p.y, t.p.z, c[0], c[1],
                     c[2]);
        // the drawn (float) quaternion, which rb_create_body normalises again in float: within 2 ulp-ish
        if (!(fabs(t.q.x - q[1]) < 3e-7 && fabs(t.q.y - q[2]) < 3e-7 && fabs(t.q.z - q[3]) < 3e-7 &&
              fabs(t.q.w - q[0]) < 3e-7))
            fail_msg("rock %d turned by (%.9g, %.9g, %.9g, %.9g), expected (%.9g, %.9g, %.9g, %.9g)", b, t.q.x, t.q.y,
                     t.q.z, t.q.w, q[1], q[2], q[3], q[0]);
    }
    rocks_hull ref;
    assert_int_equal(rocks_hull_build(&pts[0][0], ROCKS_POINTS, &ref), 1);
    rb_convex cv = convex_at(w, slot);
    assert_true(cv.radius == 0.0f);
    rb_vec3 v[64];
    int n = vertices_of(cv.hull, v, 64);
    if (n != ref.vertex_count)
        fail_msg("rock %d: %d hull vertices, rocks_hull_build finds %d", b, n, ref.vertex_count);
    for (int i = 0; i < ref.vertex_count; ++i) {
        const double *p = ref.vertex[i];
        bool found = false;
        for (int j = 0; j < n && !found; ++j)
            found = v[j].x == (float)p[0] && v[j].y == (float)p[1] && v[j].z == (float)p[2];
        if (!found)
            fail_msg("rock %d: drawn point (%.9g, %.9g, %.9g) is not a vertex of its hull", b, p[0], p[1], p[2]);
    }
    // rubble's builder merges faces within its weld distance (1e-4 m) of one plane into one: the same
    // faces or fewer, the volume within 0.3% (over the whole scene: 213 of the 4096 rocks have merged
    // faces, and one loses a vertex 0.1 mm inside the hull of the others)
    rb_hull_info info = info_of(cv.hull);
    assert_true(info.face_count <= ref.face_count && info.face_count >= ref.face_count - 4);
    rocks_mass mass;
    rocks_mass_properties(&ref, 1.0, &mass);
    assert_near(info.volume, mass.volume, 3e-3 * mass.volume);
    rb_mass_data md;
    assert_int_equal(rb_body_get_mass_data(body, &md), RB_OK);
    assert_near(md.mass, 1.0, 1e-6);
    double scale = mass.principal[2];
    // the centroid is the body origin, to the builder's merging of faces (weld 1e-4 m) and rounding
    assert_near(md.center.x, 0.0, 1e-4);
    assert_near(md.center.y, 0.0, 1e-4);
    assert_near(md.center.z, 0.0, 1e-4);
    assert_near(md.inertia.x, mass.inertia[0][0], 1e-3 * scale);
    assert_near(md.inertia.y, mass.inertia[1][1], 1e-3 * scale);
    assert_near(md.inertia.z, mass.inertia[2][2], 1e-3 * scale);
    assert_near(md.inertia_products.x, mass.inertia[0][1], 1e-3 * scale);
    assert_near(md.inertia_products.y, mass.inertia[0][2], 1e-3 * scale);
    assert_near(md.inertia_products.z, mass.inertia[1][2], 1e-3 * scale);
}

static void test_rocks_yaml_is_the_bench_scene_rocks_draw_for_draw(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/rocks.yaml", scene_dir());
    rb_world_id w = new_world();
    if (rb_load_scene(w, path) != RB_OK)
        fail_msg("%s: %s", path, rb_last_error(w));
    rb_counters c = counters(w);
    assert_int_equal(c.bodies, 5 + ROCKS_BODIES); // the ground, the pen, the rocks
    // every rock has a hull of its own
    rb_hull_id first = convex_at(w, 5).hull, last = convex_at(w, 5 + ROCKS_BODIES - 1).hull;
    assert_false(same_hull(first, last));
    assert_false(same_hull(first, convex_at(w, 6).hull));

    // rocks_scene.h's draws, body by body: the first 40 and the last
    uint64_t rng = 1;
    double pts[ROCKS_POINTS][3], q[4];
    for (int b = 0; b < ROCKS_BODIES; ++b) {
        rocks_draw_body(&rng, pts, q);
        if (b < 40 || b == ROCKS_BODIES - 1)
            assert_reference_rock(w, 5 + b, b, pts, q, true);
    }
    rb_destroy_world(w);
}

static void test_rocks_generator_keys(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    // 8 points from 4 draws each, other extents, no turn, a rounding radius, 2 kg, seed 5
    load_ok(w, "rubble-scene: 1\n"
               "seed: 5\n"
               "generators:\n"
               "  - rocks: {count: [2, 1, 3], spacing: [2, 1, 1.5], center: [10, 4, 0], points: 8,\n"
               "            extents: [0.5, 0.25, 0.125], random_rotation: false, radius: 0.01, mass: 2,\n"
               "            friction: 0.3}\n");
    assert_int_equal(counters(w).bodies, 6);
    {
        uint64_t state_ = 5;
        for (int b = 0; b < 6; ++b) {
            double p[8][3];
            for (int j = 0; j < 4; ++j) { // rocks_draw_body's arithmetic for 4 draws and these extents
                double u1 = rocks_lcg_next(&state_), u2 = rocks_lcg_next(&state_);
                double cc = 2.0 * u1 - 1.0, s = sqrt(1.0 - rocks_product(cc, cc)), phi = 2.0 * PI * u2;
                double d[3] = {s * cos(phi), s * sin(phi), cc};
                p[j][0] = 0.5 * d[0], p[j][1] = 0.25 * d[1], p[j][2] = 0.125 * d[2];
                for (int k = 0; k < 3; ++k)
                    p[4 + j][k] = -p[j][k];
            }
            int ix = b / 3, iz = b % 3; // loop order y, x, z
            rb_body_id body = body_at(w, b);
            rb_transform t;
            assert_int_equal(rb_body_get_transform(body, &t), RB_OK);
            assert_true(t.p.x == (float)(10.0 + (ix - 0.5) * 2.0) && t.p.y == 4.0f &&
                        t.p.z == (float)((iz - 1.0) * 1.5));
            assert_true(t.q.x == 0.0f && t.q.y == 0.0f && t.q.z == 0.0f && t.q.w == 1.0f);
            rb_convex cv = convex_at(w, b);
            assert_true(cv.radius == 0.01f);
            rb_vec3 v[64];
            int n = vertices_of(cv.hull, v, 64);
            assert_true(n >= 4 && n <= 8);
            for (int i = 0; i < n; ++i) { // each vertex one of the drawn points
                bool found = false;
                for (int j = 0; j < 8 && !found; ++j)
                    found = v[i].x == (float)p[j][0] && v[i].y == (float)p[j][1] && v[i].z == (float)p[j][2];
                assert_true(found);
            }
            float m, f;
            assert_int_equal(rb_body_get_mass(body, &m), RB_OK);
            assert_near(m, 2.0, 1e-6);
            rb_shape_id s;
            assert_int_equal(rb_body_get_shapes(body, &s, 1, NULL), RB_OK);
            assert_int_equal(rb_shape_get_friction(s, &f), RB_OK);
            assert_true(f == 0.3f);
        }
    }
    assert_int_equal(live_hulls(w).count, 6);
    rb_destroy_world(w);
}

static void test_convex_demo_shares_its_hulls_and_settles_on_the_ground(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/convex-demo.yaml", scene_dir());
    rb_world_id w = new_world();
    if (rb_load_scene(w, path) != RB_OK)
        fail_msg("%s: %s", path, rb_last_error(w));
    rb_counters c = counters(w);
    int convex = 0, rounded = 0;
    rb_hull_id seen[128];
    int distinct = 0;
    for (int slot = 0; slot < c.body_slots; ++slot) {
        rb_shape_id s;
        rb_shape_type type;
        assert_int_equal(rb_body_get_shapes(body_at(w, slot), &s, 1, NULL), RB_OK);
        assert_int_equal(rb_shape_get_type(s, &type), RB_OK);
        if (type != RB_SHAPE_CONVEX)
            continue;
        rb_convex cv = convex_at(w, slot);
        ++convex;
        rounded += cv.radius > 0.0f;
        bool known = false;
        for (int i = 0; i < distinct && !known; ++i)
            known = same_hull(seen[i], cv.hull);
        if (!known) {
            assert_true(distinct < 128);
            seen[distinct++] = cv.hull;
        }
    }
    assert_true(convex >= 80 && rounded >= 3);
    assert_true(distinct < convex / 2); // shared hulls
    assert_int_equal(live_hulls(w).count, distinct);
    // three seconds: everything finite and above the ground
    for (int i = 0; i < 180; ++i)
        assert_int_equal(rb_world_step(w), RB_OK);
    rb_transform *t = malloc(sizeof *t * (size_t)c.body_slots);
    assert_non_null(t);
    assert_int_equal(rb_world_get_transforms(w, 0, c.body_slots, t), RB_OK);
    for (int i = 0; i < c.body_slots; ++i)
        assert_true(isfinite(t[i].p.x) && isfinite(t[i].p.y) && isfinite(t[i].p.z) && t[i].p.y > -0.1f);
    free(t);
    rb_destroy_world(w);
}

// ---- malformed hulls: refused at their line, nothing left behind ----

typedef struct snapshot {
    int bodies, shapes, body_slots;
    hull_set hulls;
} snapshot;

static snapshot take(rb_world_id w)
{
    rb_counters c = counters(w);
    return (snapshot){c.bodies, c.shapes, c.body_slots, live_hulls_in(w, 16)}; // the tests below use fewer
}

static void assert_unchanged(rb_world_id w, const snapshot *before)
{
    snapshot now = take(w);
    assert_int_equal(now.bodies, before->bodies);
    assert_int_equal(now.shapes, before->shapes);
    assert_int_equal(now.body_slots, before->body_slots);
    assert_int_equal(now.hulls.count, before->hulls.count);
    for (int i = 0; i < now.hulls.count; ++i)
        assert_true(same_hull(now.hulls.ids[i], before->hulls.ids[i]));
}

static void expect_refused(rb_world_id w, const char *text, rb_status status, const char *where, const char *what)
{
    snapshot before = take(w);
    rb_status s = rb_load_scene_text(w, text, "bad.yaml");
    if (s != status)
        fail_msg("status %d, expected %d: %s", s, status, rb_last_error(w));
    assert_contains(rb_last_error(w), where);
    assert_contains(rb_last_error(w), what);
    assert_unchanged(w, &before);
}

#define HEADER "rubble-scene: 1\n"
#define TETRA "[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]"

static void test_malformed_hulls_are_refused_at_their_line_and_change_nothing(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    // a world with a hull and convex bodies already: they stay, with their ids
    load_ok(w, HEADER "hulls: {old: {points: " TETRA "}}\n"
               "bodies: [{type: static, shapes: [{plane: {}}]}, {position: [0, 2, 0], shapes: [{convex: {hull: old}}]}]\n");
    rb_hull_id old = convex_at(w, 1).hull;

    // too few points
    expect_refused(w, HEADER "hulls:\n  tri: {points: [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}\n", RB_ERR_INVALID_ARGUMENT,
                   "bad.yaml:3:17:", "hull 'tri' points: a hull needs at least 4 points [x, y, z] that span a solid, got 3");
    expect_refused(w, HEADER "bodies: [{shapes: [{convex: {points: [[0, 0, 0]]}}]}]\n", RB_ERR_INVALID_ARGUMENT,
                   "bad.yaml:2:38:", "convex points: a hull needs at least 4 points");
    // not numbers, not points
    expect_refused(w, HEADER "hulls:\n  rock:\n    points: [[0, 0, 0], [1, 0, 0], [0, abc, 0], [0, 0, 1]]\n",
                   RB_ERR_PARSE, "bad.yaml:4:40:", "hull 'rock' point 3.y: expected a number, got the string 'abc'");
    expect_refused(w, HEADER "hulls:\n  rock:\n    points: [[0, 0, 0], [1, 0], [0, 1, 0], [0, 0, 1]]\n", RB_ERR_PARSE,
                   "bad.yaml:4:25:", "hull 'rock' point 2: expected a sequence of 3 numbers [x, y, z], got 2 items");
    expect_refused(w, HEADER "hulls: {rock: {points: 7}}\n", RB_ERR_PARSE, "bad.yaml:2:24:",
                   "hull 'rock' points: expected a sequence of at least 4 points [[x, y, z], ...], got the number 7");
    expect_refused(w, HEADER "hulls: {rock: {}}\n", RB_ERR_PARSE, "bad.yaml:2:15:", "missing key 'points' in hull 'rock'");
    expect_refused(w, HEADER "hulls: [{points: " TETRA "}]\n", RB_ERR_PARSE, "bad.yaml:2:8:",
                   "hulls: expected a mapping of names to {points: [[x, y, z], ...]}, got a sequence");
    // names
    expect_refused(w, HEADER "hulls: {rock: {points: " TETRA "}}\n"
                             "bodies: [{shapes: [{convex: {hull: rokc}}]}]\n",
                   RB_ERR_PARSE, "bad.yaml:3:36:", "unknown hull 'rokc'; expected one of the names under 'hulls': rock");
    expect_refused(w, HEADER "bodies: [{shapes: [{convex: {hull: old}}]}]\n", RB_ERR_PARSE, "bad.yaml:2:36:",
                   "unknown hull 'old'; expected one of the names under 'hulls' (there are none)");
    expect_refused(w, HEADER "hulls:\n  rock: {points: " TETRA "}\n  pebble: {points: " TETRA "}\n"
                             "  rock: {points: " TETRA "}\n",
                   RB_ERR_PARSE, "bad.yaml:5:3:", "duplicate hull 'rock' (first defined at line 3); each name may be "
                                                  "defined only once");
    // a convex shape's keys
    expect_refused(w, HEADER "hulls: {rock: {points: " TETRA "}}\n"
                             "bodies: [{shapes: [{convex: {hull: rock, points: " TETRA "}}]}]\n",
                   RB_ERR_PARSE, "bad.yaml:3:36:", "convex: expected either 'points' (a hull of its own) or 'hull'");
    expect_refused(w, HEADER "bodies: [{shapes: [{convex: {radius: 0.1}}]}]\n", RB_ERR_PARSE, "bad.yaml:2:29:",
                   "convex: expected 'points: [[x, y, z], ...]' (at least 4) or 'hull: NAME'");
    expect_refused(w, HEADER "hulls: {rock: {points: " TETRA "}}\n"
                             "bodies: [{shapes: [{convex: {hull: rock, radius: -0.1}}]}]\n",
                   RB_ERR_INVALID_ARGUMENT, "bad.yaml:3:50:", "convex radius must be >= 0 m (0: sharp edges), got -0.1");
    expect_refused(w, HEADER "hulls: {rock: {points: " TETRA "}}\n"
                             "bodies: [{shapes: [{convex: {hull: rock, max_vertices: 8}}]}]\n",
                   RB_ERR_PARSE, "bad.yaml:3:56:", "convex: 'max_vertices' belongs to the hull's own entry under 'hulls'");
    expect_refused(w, HEADER "hulls: {rock: {points: " TETRA ", max_vertices: 100}}\n", RB_ERR_INVALID_ARGUMENT,
                   "bad.yaml:2:84:", "hull 'rock' max_vertices must be in [4, 64], got 100");
    expect_refused(w, HEADER "hulls: {rock: {points: " TETRA ", weld: 0.1}}\n", RB_ERR_PARSE, "bad.yaml:2:70:",
                   "unknown key 'weld' in hull 'rock'; expected one of: points, weld_distance, max_vertices");
    expect_refused(w, HEADER "generators: [{pyramid: {base: 2, shape: {convex: {points: " TETRA "}}}}]\n",
                   RB_ERR_PARSE, "bad.yaml:2:41:", "pyramid shape: expected a box, got a convex");

    // a flat cloud is found when the hull is built: after 'good' was, which goes again
    expect_refused(w, HEADER "hulls:\n  good: {points: " TETRA "}\n"
                             "  flat: {points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0.5, 0.5, 0]]}\n"
                             "bodies: [{shapes: [{convex: {hull: good}}]}, {shapes: [{convex: {hull: flat}}]}]\n",
                   RB_ERR_INVALID_ARGUMENT, "bad.yaml:4:18:", "hull 'flat': no hull: ");
    expect_refused(w, HEADER "bodies:\n  - shapes: [{convex: {points: [[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]]}}]\n",
                   RB_ERR_INVALID_ARGUMENT, "bad.yaml:3:32:", "convex: no hull: ");
    // a body the API refuses after hulls and convex bodies were made: the bodies go, then their hulls
    expect_refused(w, HEADER "hulls: {rock: {points: " TETRA "}}\n"
                             "bodies:\n"
                             "  - {position: [0, 5, 0], shapes: [{convex: {hull: rock}}]}\n"
                             "  - {position: [2, 5, 0], shapes: [{convex: {points: " TETRA "}}]}\n"
                             "  - {name: ball, shapes: [{sphere: {radius: -1}}]}\n",
                   RB_ERR_INVALID_ARGUMENT, "bad.yaml:6:27:", "body 'ball': sphere radius must be finite");
    // the rocks generator's hulls, made before a later generator fails
    expect_refused(w, HEADER "generators:\n"
                             "  - rocks: {count: [2, 2, 2]}\n"
                             "  - grid: {count: [1, 1, 1], spacing: [1, 1, 1], shape: {box: {half_extents: [1, -1, 1]}}}\n",
                   RB_ERR_INVALID_ARGUMENT, "bad.yaml:4:11:", "grid: ");
    // rocks keys
    expect_refused(w, HEADER "generators: [{rocks: {count: [2, 2, 2], points: 7}}]\n", RB_ERR_INVALID_ARGUMENT,
                   "bad.yaml:2:49:", "rocks points must be even");
    expect_refused(w, HEADER "generators: [{rocks: {count: [2, 2, 2], points: 2}}]\n", RB_ERR_INVALID_ARGUMENT,
                   "bad.yaml:2:49:", "rocks points must be in [4, 256], got 2");
    expect_refused(w, HEADER "generators: [{rocks: {count: [2, 2, 2], extents: [0.1, 0, 0.1]}}]\n",
                   RB_ERR_INVALID_ARGUMENT, "bad.yaml:2:50:", "rocks extents must be in (0, 1e6] m in each axis");
    expect_refused(w, HEADER "generators: [{rocks: {count: [2, 2, 2], radius: -1}}]\n", RB_ERR_INVALID_ARGUMENT,
                   "bad.yaml:2:49:", "rocks radius must be >= 0 m");
    expect_refused(w, HEADER "generators: [{rocks: {}}]\n", RB_ERR_PARSE, "bad.yaml:2:22:", "missing key 'count' in rocks");

    // the ones there before are still there, and the next load takes the hull slot the failures gave back
    assert_true(rb_hull_is_valid(old));
    load_ok(w, HEADER "hulls: {new: {points: " TETRA "}}\nbodies: [{position: [3, 2, 0], shapes: [{convex: {hull: new}}]}]\n");
    rb_hull_id fresh = convex_at(w, 2).hull;
    assert_int_equal(fresh.index1, old.index1 + 1);
    assert_int_equal(counters(w).bodies, 3);
    assert_int_equal(live_hulls(w).count, 2);
    rb_destroy_world(w);
}

// ---- bounds ----

static void test_hull_point_and_hull_counts_are_bounded_before_anything_is_built(void **state)
{
    (void)state;
    rb_world_id w = new_world();
    snapshot before = take(w);
    // 100,001 points in one hull: more than rb_compute_hull takes
    size_t size = 100001 * 10 + 200;
    char *text = malloc(size);
    assert_non_null(text);
    size_t used = (size_t)snprintf(text, size, HEADER "hulls:\n  big:\n    points: [");
    for (int i = 0; i < 100001; ++i)
        used += (size_t)snprintf(text + used, size - used, "%s[%d,%d,%d]", i ? "," : "", i % 7, i % 11, i % 13);
    snprintf(text + used, size - used, "]\n");
    assert_int_equal(rb_load_scene_text(w, text, "big.yaml"), RB_ERR_CAPACITY);
    assert_contains(rb_last_error(w), "big.yaml:4:13: hull 'big' points: 100001 points, more than the limit of 100000 per hull");
    free(text);
    assert_unchanged(w, &before);
    // rocks: a hull each, at most 2^20 per file; and at most 2^24 hull points per file
    assert_int_equal(rb_load_scene_text(w, HEADER "generators: [{rocks: {count: [1024, 1024, 2]}}]\n", "many.yaml"),
                     RB_ERR_CAPACITY);
    assert_contains(rb_last_error(w), "many.yaml:2:30: these rocks would bring the scene to 2097152 hulls (one per rock), "
                                      "more than the limit of 1048576 per scene file");
    assert_int_equal(rb_load_scene_text(w, HEADER "generators: [{rocks: {count: [512, 512, 2], points: 256}}]\n",
                                        "points.yaml"),
                     RB_ERR_CAPACITY);
    assert_contains(rb_last_error(w), "points.yaml:2:53: these rocks would bring the scene to 134217728 hull points, "
                                      "more than the limit of 16777216 per scene file");
    assert_unchanged(w, &before);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_named_hulls_are_shared_by_every_shape_that_names_them),
        cmocka_unit_test(test_inline_points_make_a_hull_of_the_shapes_own_and_an_alias_shares_it),
        cmocka_unit_test(test_rocks_yaml_is_the_bench_scene_rocks_draw_for_draw),
        cmocka_unit_test(test_rocks_generator_keys),
        cmocka_unit_test(test_convex_demo_shares_its_hulls_and_settles_on_the_ground),
        cmocka_unit_test(test_malformed_hulls_are_refused_at_their_line_and_change_nothing),
        cmocka_unit_test(test_hull_point_and_hull_counts_are_bounded_before_anything_is_built),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
