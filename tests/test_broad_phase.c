// The CPU broad phase against a brute-force O(n²) reference of the rules in broad_phase.h, and the
// radix sort it is built on.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "broad_phase.h"
#include "kernels/shape_geom.h"
#include "scene.h"
#include "sort.h"

// ---------------------------------------------------------------- random numbers (bench-scenes.md LCG)

typedef struct lcg {
    uint64_t state;
} lcg;

static double lcg_draw(lcg *r)
{
    r->state = r->state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(r->state >> 11) * (1.0 / 9007199254740992.0);
}

static float lcg_range(lcg *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lcg_draw(r);
}

static int lcg_below(lcg *r, int n)
{
    return (int)(lcg_draw(r) * n);
}

// ---------------------------------------------------------------- test scenes

#define FLAGS_DYNAMIC_AWAKE (RB_BODY_ALIVE | RB_BODY_DYNAMIC_T | RB_BODY_AWAKE)
#define FLAGS_DYNAMIC_ASLEEP (RB_BODY_ALIVE | RB_BODY_DYNAMIC_T)
#define FLAGS_KINEMATIC_AWAKE (RB_BODY_ALIVE | RB_BODY_KINEMATIC_T | RB_BODY_AWAKE)
#define FLAGS_KINEMATIC_ASLEEP (RB_BODY_ALIVE | RB_BODY_KINEMATIC_T)
#define FLAGS_STATIC (RB_BODY_ALIVE | RB_BODY_STATIC_T)

typedef struct test_scene {
    int capacity;
    int shapes, bodies;
    int *shape_body, *shape_type;
    rb_float4 *lo, *hi, *plane;
    uint32_t *filter;
    uint32_t *body_flags;
} test_scene;

static test_scene *scene_new(int capacity)
{
    test_scene *s = calloc(1, sizeof *s);
    s->capacity = capacity;
    s->shape_body = calloc((size_t)capacity, sizeof(int));
    s->shape_type = calloc((size_t)capacity, sizeof(int));
    s->lo = calloc((size_t)capacity, sizeof(rb_float4));
    s->hi = calloc((size_t)capacity, sizeof(rb_float4));
    s->plane = calloc((size_t)capacity, sizeof(rb_float4));
    s->filter = calloc(2 * (size_t)capacity, sizeof(uint32_t));
    s->body_flags = calloc((size_t)capacity, sizeof(uint32_t));
    return s;
}

static void scene_free(test_scene *s)
{
    free(s->shape_body);
    free(s->shape_type);
    free(s->lo);
    free(s->hi);
    free(s->plane);
    free(s->filter);
    free(s->body_flags);
    free(s);
}

static int add_body(test_scene *s, uint32_t flags)
{
    assert_true(s->bodies < s->capacity);
    s->body_flags[s->bodies] = flags;
    return s->bodies++;
}

static int add_shape(test_scene *s, int body, int type)
{
    assert_true(s->shapes < s->capacity);
    int i = s->shapes++;
    s->shape_body[i] = body;
    s->shape_type[i] = type;
    s->filter[2 * i] = 1u;
    s->filter[2 * i + 1] = 0xffffffffu;
    return i;
}

static int add_box(test_scene *s, int body, float x0, float y0, float z0, float x1, float y1, float z1)
{
    int i = add_shape(s, body, RB_GEOM_BOX);
    s->lo[i] = rb_f4(x0, y0, z0, 0.0f);
    s->hi[i] = rb_f4(x1, y1, z1, 0.0f);
    return i;
}

static int add_sphere(test_scene *s, int body, float x, float y, float z, float r)
{
    int i = add_box(s, body, x - r, y - r, z - r, x + r, y + r, z + r);
    s->shape_type[i] = RB_GEOM_SPHERE;
    return i;
}

// The plane n·x = d, n normalised here.
static int add_plane(test_scene *s, int body, float nx, float ny, float nz, float d)
{
    int i = add_shape(s, body, RB_GEOM_PLANE);
    float len = sqrtf(nx * nx + ny * ny + nz * nz);
    s->plane[i] = rb_f4(nx / len, ny / len, nz / len, d);
    // The broad phase must not read a plane's AABB; make it one that would overlap everything.
    s->lo[i] = rb_f4(-1e30f, -1e30f, -1e30f, 0.0f);
    s->hi[i] = rb_f4(1e30f, 1e30f, 1e30f, 0.0f);
    return i;
}

static int add_free_slot(test_scene *s)
{
    int i = add_shape(s, 0, RB_GEOM_SPHERE);
    s->shape_body[i] = -1;
    s->lo[i] = rb_f4(-1e4f, -1e4f, -1e4f, 0.0f);
    s->hi[i] = rb_f4(1e4f, 1e4f, 1e4f, 0.0f);
    return i;
}

static rb_broad_input scene_input(const test_scene *s)
{
    rb_broad_input in;
    in.shape_slots = s->shapes;
    in.shape_body = s->shape_body;
    in.shape_type = s->shape_type;
    in.aabb_lo = s->lo;
    in.aabb_hi = s->hi;
    in.plane = s->plane;
    in.shape_filter = s->filter;
    in.body_flags = s->body_flags;
    return in;
}

// Sphere or box (half the time each) of random size in [min_size, max_size], centre in the cube
// [-half, half]³ shifted by `offset`.
static void add_random_shape(test_scene *s, lcg *r, int body, float min_size, float max_size, float half,
                             float offset)
{
    float x = offset + lcg_range(r, -half, half), y = offset + lcg_range(r, -half, half);
    float z = offset + lcg_range(r, -half, half);
    if (lcg_draw(r) < 0.5) {
        add_sphere(s, body, x, y, z, 0.5f * lcg_range(r, min_size, max_size));
    } else {
        float ex = 0.5f * lcg_range(r, min_size, max_size), ey = 0.5f * lcg_range(r, min_size, max_size);
        float ez = 0.5f * lcg_range(r, min_size, max_size);
        add_box(s, body, x - ex, y - ey, z - ez, x + ex, y + ey, z + ez);
    }
}

// ---------------------------------------------------------------- brute-force reference

typedef struct pair_list {
    rb_pair *pairs;
    int count, capacity;
} pair_list;

static void pair_list_push(pair_list *l, int a, int b)
{
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? 2 * l->capacity : 256;
        l->pairs = realloc(l->pairs, sizeof(rb_pair) * (size_t)l->capacity);
        assert_non_null(l->pairs);
    }
    l->pairs[l->count].shape_a = a;
    l->pairs[l->count].shape_b = b;
    l->count++;
}

static int ref_aabbs_overlap(rb_float4 alo, rb_float4 ahi, rb_float4 blo, rb_float4 bhi)
{
    return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y && alo.z <= bhi.z && blo.z <= ahi.z;
}

// Lowest corner of the AABB along n, at or below the plane's offset.
static int ref_reaches_plane(rb_float4 lo, rb_float4 hi, rb_float4 p)
{
    float x = p.x > 0.0f ? lo.x : hi.x, y = p.y > 0.0f ? lo.y : hi.y, z = p.z > 0.0f ? lo.z : hi.z;
    return p.x * x + p.y * y + p.z * z <= p.w;
}

static int ref_rules_allow(const rb_broad_input *in, int a, int b)
{
    int ba = in->shape_body[a], bb = in->shape_body[b];
    if (ba < 0 || bb < 0 || ba == bb)
        return 0;
    uint32_t fa = in->body_flags[ba], fb = in->body_flags[bb];
    if ((fa | fb) & RB_BODY_FROZEN)
        return 0;
    int dynamic = (fa & RB_BODY_TYPE_MASK) == RB_BODY_DYNAMIC_T || (fb & RB_BODY_TYPE_MASK) == RB_BODY_DYNAMIC_T;
    int awake = ((fa | fb) & RB_BODY_AWAKE) != 0;
    const uint32_t *f = in->shape_filter;
    return dynamic && awake && (f[2 * a] & f[2 * b + 1]) != 0 && (f[2 * b] & f[2 * a + 1]) != 0;
}

static int ref_overlap(const rb_broad_input *in, int a, int b)
{
    int pa = in->shape_type[a] == RB_GEOM_PLANE, pb = in->shape_type[b] == RB_GEOM_PLANE;
    if (pa && pb)
        return 0;
    if (pa)
        return ref_reaches_plane(in->aabb_lo[b], in->aabb_hi[b], in->plane[a]);
    if (pb)
        return ref_reaches_plane(in->aabb_lo[a], in->aabb_hi[a], in->plane[b]);
    return ref_aabbs_overlap(in->aabb_lo[a], in->aabb_hi[a], in->aabb_lo[b], in->aabb_hi[b]);
}

static pair_list reference_pairs(const rb_broad_input *in)
{
    pair_list l = {0};
    for (int a = 0; a < in->shape_slots; a++)
        for (int b = a + 1; b < in->shape_slots; b++)
            if (ref_rules_allow(in, a, b) && ref_overlap(in, a, b))
                pair_list_push(&l, a, b);
    return l;
}

static void assert_same_pairs(const rb_pair *got, int got_count, const pair_list *want)
{
    assert_int_equal(got_count, want->count);
    for (int i = 0; i < want->count; i++) {
        if (got[i].shape_a != want->pairs[i].shape_a || got[i].shape_b != want->pairs[i].shape_b) {
            print_error("pair %d: got (%d, %d), want (%d, %d)\n", i, got[i].shape_a, got[i].shape_b,
                        want->pairs[i].shape_a, want->pairs[i].shape_b);
            fail();
        }
    }
}

static void assert_call_matches(rb_broad_phase *bp, const rb_broad_input *in, int threads, const pair_list *want)
{
    const rb_pair *pairs = NULL;
    int count = -1;
    assert_int_equal(rb_broad_phase_find_pairs(bp, in, threads, &pairs, &count), RB_OK);
    assert_same_pairs(pairs, count, want);
}

// Runs the broad phase with 1, 2 and 4 threads, twice each on a fresh object, then on one object
// with the thread count changing between calls, and compares every result with the reference.
// Returns the number of pairs.
static int assert_matches_reference(const test_scene *s)
{
    rb_broad_input in = scene_input(s);
    pair_list want = reference_pairs(&in);
    static const int thread_counts[] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        rb_broad_phase *bp = rb_broad_phase_create();
        assert_non_null(bp);
        assert_call_matches(bp, &in, thread_counts[k], &want);
        assert_call_matches(bp, &in, thread_counts[k], &want);
        rb_broad_phase_destroy(bp);
    }
    rb_broad_phase *bp = rb_broad_phase_create();
    for (int k = 2; k >= 0; k--)
        assert_call_matches(bp, &in, thread_counts[k], &want);
    rb_broad_phase_destroy(bp);
    free(want.pairs);
    return want.count;
}

// ---------------------------------------------------------------- broad phase tests

static void test_no_shapes_give_no_pairs(void **state)
{
    (void)state;
    test_scene *s = scene_new(1);
    assert_int_equal(assert_matches_reference(s), 0);
    scene_free(s);
}

static void test_one_shape_gives_no_pairs(void **state)
{
    (void)state;
    test_scene *s = scene_new(1);
    add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.0f, 0.0f, 0.0f, 0.5f);
    assert_int_equal(assert_matches_reference(s), 0);
    scene_free(s);
}

static void test_two_overlapping_spheres_give_one_pair(void **state)
{
    (void)state;
    test_scene *s = scene_new(2);
    add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.0f, 0.0f, 0.0f, 0.5f);
    add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.9f, 0.0f, 0.0f, 0.5f);
    assert_int_equal(assert_matches_reference(s), 1);
    scene_free(s);
}

static void test_many_small_spheres_and_boxes_of_mixed_sizes(void **state)
{
    (void)state;
    // 6000 shapes of 0.1 .. 1.5 m in a 24 m cube: about a dozen neighbours per shape overlap.
    test_scene *s = scene_new(6000);
    lcg r = {1};
    for (int i = 0; i < 6000; i++)
        add_random_shape(s, &r, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.1f, 1.5f, 12.0f, 0.0f);
    assert_true(assert_matches_reference(s) > 1000);
    scene_free(s);
}

static void test_a_few_huge_dynamic_shapes_among_small_ones(void **state)
{
    (void)state;
    test_scene *s = scene_new(5000);
    lcg r = {2};
    for (int i = 0; i < 4990; i++)
        add_random_shape(s, &r, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.2f, 0.6f, 15.0f, 0.0f);
    add_box(s, add_body(s, FLAGS_DYNAMIC_AWAKE), -10.0f, -10.0f, -10.0f, 10.0f, 10.0f, 10.0f);
    add_box(s, add_body(s, FLAGS_DYNAMIC_AWAKE), -14.0f, -1.0f, -14.0f, 14.0f, 1.0f, 14.0f);
    add_sphere(s, add_body(s, FLAGS_KINEMATIC_AWAKE), 5.0f, 5.0f, 5.0f, 8.0f);
    add_box(s, add_body(s, FLAGS_DYNAMIC_ASLEEP), 0.0f, -15.0f, -15.0f, 0.5f, 15.0f, 15.0f);
    assert_true(assert_matches_reference(s) > 1000);
    scene_free(s);
}

static void test_many_large_static_tiles_under_small_dynamic_shapes(void **state)
{
    (void)state;
    // 100 static 8 m tiles: more than the large list holds, so the cell grows instead.
    test_scene *s = scene_new(5200);
    lcg r = {3};
    int ground = add_body(s, FLAGS_STATIC);
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            add_box(s, ground, -40.0f + 8.0f * i, -1.0f, -40.0f + 8.0f * j, -32.0f + 8.0f * i, 0.0f, -32.0f + 8.0f * j);
    for (int i = 0; i < 5000; i++) {
        float x = lcg_range(&r, -40.0f, 40.0f), z = lcg_range(&r, -40.0f, 40.0f), y = lcg_range(&r, 0.3f, 3.0f);
        add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), x, y, z, 0.31f);
    }
    assert_true(assert_matches_reference(s) > 500);
    scene_free(s);
}

static void test_ground_and_tilted_planes_pair_with_shapes_that_reach_them(void **state)
{
    (void)state;
    test_scene *s = scene_new(4200);
    lcg r = {4};
    int ground = add_body(s, FLAGS_STATIC);
    add_plane(s, ground, 0.0f, 1.0f, 0.0f, 0.0f);
    add_plane(s, ground, 1.0f, 1.0f, 0.0f, -3.0f);   // tilted 45° about z
    add_plane(s, ground, -0.3f, 0.8f, 0.5f, -2.0f);  // tilted about two axes
    add_plane(s, ground, 0.0f, 0.0f, -1.0f, -8.0f);  // a wall z = 8 facing -z
    for (int i = 0; i < 4000; i++)
        add_random_shape(s, &r, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.2f, 1.0f, 10.0f, 0.0f);
    // A plane on a dynamic body pairs with static shapes; two planes never pair.
    int moving = add_body(s, FLAGS_DYNAMIC_AWAKE);
    add_plane(s, moving, 0.0f, -1.0f, 0.0f, 9.0f);
    add_box(s, add_body(s, FLAGS_STATIC), -1.0f, -9.5f, -1.0f, 1.0f, -8.5f, 1.0f);
    assert_true(assert_matches_reference(s) > 1000);
    scene_free(s);
}

static void test_shape_resting_exactly_on_the_plane_counts(void **state)
{
    (void)state;
    test_scene *s = scene_new(3);
    add_plane(s, add_body(s, FLAGS_STATIC), 0.0f, 1.0f, 0.0f, 0.0f);
    add_box(s, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f);   // lowest y = 0
    add_box(s, add_body(s, FLAGS_DYNAMIC_AWAKE), 3.0f, 1e-3f, 0.0f, 4.0f, 1.0f, 1.0f); // just above
    assert_int_equal(assert_matches_reference(s), 1);
    scene_free(s);
}

static void test_pen_walls_pair_with_the_spheres_that_touch_them(void **state)
{
    (void)state;
    // The pile's pen (bench-scenes.md): 26 m x 30 m walls, inner faces at ±12, and a ground plane.
    test_scene *s = scene_new(8200);
    lcg r = {5};
    int pen = add_body(s, FLAGS_STATIC);
    add_plane(s, pen, 0.0f, 1.0f, 0.0f, 0.0f);
    add_box(s, pen, 12.0f, 0.0f, -13.0f, 13.0f, 30.0f, 13.0f);
    add_box(s, pen, -13.0f, 0.0f, -13.0f, -12.0f, 30.0f, 13.0f);
    add_box(s, pen, -13.0f, 0.0f, 12.0f, 13.0f, 30.0f, 13.0f);
    add_box(s, pen, -13.0f, 0.0f, -13.0f, 13.0f, 30.0f, -12.0f);
    for (int i = 0; i < 8000; i++) {
        float x = lcg_range(&r, -12.0f, 12.0f), y = lcg_range(&r, 0.0f, 6.0f), z = lcg_range(&r, -12.0f, 12.0f);
        add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), x, y, z, 0.52f);
    }
    assert_true(assert_matches_reference(s) > 1000);
    scene_free(s);
}

static void test_static_kinematic_dynamic_sleeping_and_frozen_mix(void **state)
{
    (void)state;
    static const uint32_t kinds[] = {
        FLAGS_DYNAMIC_AWAKE, FLAGS_DYNAMIC_ASLEEP, FLAGS_KINEMATIC_AWAKE, FLAGS_KINEMATIC_ASLEEP, FLAGS_STATIC,
        FLAGS_DYNAMIC_AWAKE | RB_BODY_FROZEN, FLAGS_DYNAMIC_ASLEEP | RB_BODY_FROZEN, FLAGS_STATIC | RB_BODY_FROZEN,
    };
    test_scene *s = scene_new(5000);
    lcg r = {6};
    for (int i = 0; i < 5000; i++)
        add_random_shape(s, &r, add_body(s, kinds[lcg_below(&r, 8)]), 0.3f, 1.2f, 10.0f, 0.0f);
    assert_true(assert_matches_reference(s) > 500);
    scene_free(s);
}

static void test_shapes_of_one_body_never_pair_with_each_other(void **state)
{
    (void)state;
    // Compound bodies of 1 .. 6 shapes, clustered so that shapes of one body overlap.
    test_scene *s = scene_new(5000);
    lcg r = {7};
    while (s->shapes < 4990) {
        int body = add_body(s, lcg_draw(&r) < 0.8 ? FLAGS_DYNAMIC_AWAKE : FLAGS_STATIC);
        float x = lcg_range(&r, -8.0f, 8.0f), y = lcg_range(&r, -8.0f, 8.0f), z = lcg_range(&r, -8.0f, 8.0f);
        for (int k = 1 + lcg_below(&r, 6); k > 0; k--)
            add_sphere(s, body, x + lcg_range(&r, -0.3f, 0.3f), y + lcg_range(&r, -0.3f, 0.3f),
                       z + lcg_range(&r, -0.3f, 0.3f), 0.4f);
    }
    assert_true(assert_matches_reference(s) > 500);
    scene_free(s);
}

static void test_filter_bits_exclude_pairs_both_ways(void **state)
{
    (void)state;
    test_scene *s = scene_new(5000);
    lcg r = {8};
    for (int i = 0; i < 5000; i++) {
        add_random_shape(s, &r, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.3f, 1.2f, 9.0f, 0.0f);
        s->filter[2 * i] = 1u << lcg_below(&r, 4);           // category: one of 4 groups
        s->filter[2 * i + 1] = (uint32_t)lcg_below(&r, 16);  // mask: any subset of the groups
    }
    assert_true(assert_matches_reference(s) > 500);
    scene_free(s);
}

static void test_free_slots_are_skipped(void **state)
{
    (void)state;
    test_scene *s = scene_new(5000);
    lcg r = {9};
    for (int i = 0; i < 5000; i++) {
        if (lcg_draw(&r) < 0.3)
            add_free_slot(s);
        else
            add_random_shape(s, &r, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.3f, 1.2f, 9.0f, 0.0f);
    }
    assert_true(assert_matches_reference(s) > 500);
    scene_free(s);
}

static void test_touching_but_not_overlapping_boxes_count(void **state)
{
    (void)state;
    // Unit cubes on an exact integer lattice (16 x 16 x 16 = 4096): every face, edge and corner
    // neighbour touches. Pairs: 3·16·16·15 faces + 6·16·15·15 edges + 4·15³ corners = 46,620.
    test_scene *s = scene_new(4096);
    for (int x = 0; x < 16; x++)
        for (int y = 0; y < 16; y++)
            for (int z = 0; z < 16; z++)
                add_box(s, add_body(s, FLAGS_DYNAMIC_AWAKE), (float)x, (float)y, (float)z, x + 1.0f, y + 1.0f, z + 1.0f);
    assert_int_equal(assert_matches_reference(s), 46620);
    scene_free(s);
}

static void test_touching_spheres_of_a_lattice_pile_count(void **state)
{
    (void)state;
    // Spheres of radius 0.5 spaced 1.0 apart, off the origin: AABBs touch along 26 directions.
    test_scene *s = scene_new(4913);
    for (int x = 0; x < 17; x++)
        for (int y = 0; y < 17; y++)
            for (int z = 0; z < 17; z++)
                add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), 3.25f + x, 0.5f + y, -7.75f + z, 0.5f);
    // 3·17·17·16 + 6·17·16·16 + 4·16³ = 13,872 + 26,112 + 16,384
    assert_int_equal(assert_matches_reference(s), 56368);
    scene_free(s);
}

static void test_shapes_at_negative_and_very_large_coordinates(void **state)
{
    (void)state;
    test_scene *s = scene_new(6000);
    lcg r = {10};
    static const float offsets[] = {-1e4f, 1e4f, -9999.5f, 0.0f};
    for (int i = 0; i < 6000; i++)
        add_random_shape(s, &r, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.3f, 1.2f, 8.0f, offsets[i % 4]);
    assert_true(assert_matches_reference(s) > 1000);
    scene_free(s);
}

static void test_millimetre_shapes_spread_over_twenty_kilometres(void **state)
{
    (void)state;
    // 2e4 m / 1 mm cells would need 2e7 cells per axis; the cell must grow to fit 21 bits per axis.
    test_scene *s = scene_new(5000);
    lcg r = {11};
    for (int i = 0; i < 5000; i++) {
        float x = (i % 2) ? -1e4f : 1e4f;
        x += lcg_range(&r, -0.01f, 0.01f);
        add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), x, lcg_range(&r, -0.01f, 0.01f), lcg_range(&r, -0.01f, 0.01f),
                   5e-4f);
    }
    assert_true(assert_matches_reference(s) > 100);
    scene_free(s);
}

static void test_points_and_non_finite_boxes_follow_the_plain_comparisons(void **state)
{
    (void)state;
    test_scene *s = scene_new(64);
    for (int i = 0; i < 20; i++) // zero-size boxes, all at one point: every pair touches
        add_box(s, add_body(s, FLAGS_DYNAMIC_AWAKE), 1.0f, 2.0f, 3.0f, 1.0f, 2.0f, 3.0f);
    int b = add_body(s, FLAGS_STATIC);
    add_box(s, b, -INFINITY, -1.0f, -INFINITY, INFINITY, 2.0f, INFINITY);  // infinite slab: pairs
    add_box(s, b, NAN, 0.0f, 0.0f, 5.0f, 5.0f, 5.0f);                       // NaN: never overlaps
    add_box(s, b, 4.0f, 4.0f, 4.0f, 0.0f, 0.0f, 0.0f);                      // inverted: never overlaps
    add_plane(s, b, 0.0f, 1.0f, 0.0f, 2.0f);
    assert_int_equal(assert_matches_reference(s), 190 + 20 + 20);
    scene_free(s);
}

static void test_crowded_cells_pair_all_of_their_shapes(void **state)
{
    (void)state;
    // 1000 spheres of radius 0.5 with centres in a 3 m cube: a few cells, each holding more entries
    // than the broad phase gathers at once.
    test_scene *s = scene_new(1000);
    lcg r = {13};
    for (int i = 0; i < 1000; i++)
        add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), lcg_range(&r, 0.0f, 3.0f), lcg_range(&r, 0.0f, 3.0f),
                   lcg_range(&r, 0.0f, 3.0f), 0.5f);
    assert_true(assert_matches_reference(s) > 50000);
    scene_free(s);
}

static void test_everything_asleep_gives_no_pairs(void **state)
{
    (void)state;
    test_scene *s = scene_new(1000);
    lcg r = {12};
    add_plane(s, add_body(s, FLAGS_STATIC), 0.0f, 1.0f, 0.0f, 5.0f);
    for (int i = 0; i < 999; i++)
        add_random_shape(s, &r, add_body(s, FLAGS_DYNAMIC_ASLEEP), 0.3f, 1.2f, 5.0f, 0.0f);
    assert_int_equal(assert_matches_reference(s), 0);
    scene_free(s);
}

static void test_the_result_follows_the_input_from_call_to_call(void **state)
{
    (void)state;
    // One object, three different scenes in turn (growing and shrinking): no stale state.
    rb_broad_phase *bp = rb_broad_phase_create();
    for (int round = 0; round < 3; round++) {
        int n = round == 1 ? 6000 : 1500;
        test_scene *s = scene_new(n);
        lcg r = {100u + (uint64_t)round};
        for (int i = 0; i < n; i++)
            add_random_shape(s, &r, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.2f, 1.2f, 8.0f + round, 0.0f);
        rb_broad_input in = scene_input(s);
        pair_list want = reference_pairs(&in);
        const rb_pair *pairs;
        int count;
        assert_int_equal(rb_broad_phase_find_pairs(bp, &in, 2, &pairs, &count), RB_OK);
        assert_same_pairs(pairs, count, &want);
        free(want.pairs);
        scene_free(s);
    }
    rb_broad_phase_destroy(bp);
}

static void test_missing_arguments_are_rejected_and_leave_the_result(void **state)
{
    (void)state;
    test_scene *s = scene_new(2);
    add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.0f, 0.0f, 0.0f, 0.5f);
    add_sphere(s, add_body(s, FLAGS_DYNAMIC_AWAKE), 0.5f, 0.0f, 0.0f, 0.5f);
    rb_broad_input in = scene_input(s);
    rb_broad_phase *bp = rb_broad_phase_create();
    const rb_pair *pairs = NULL;
    int count = -1;
    assert_int_equal(rb_broad_phase_find_pairs(bp, &in, 1, &pairs, &count), RB_OK);
    assert_int_equal(count, 1);
    rb_broad_input bad = in;
    bad.shape_slots = -1;
    const rb_pair *other = NULL;
    int other_count = -1;
    assert_int_equal(rb_broad_phase_find_pairs(bp, &bad, 1, &other, &other_count), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_broad_phase_find_pairs(bp, NULL, 1, &other, &other_count), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_broad_phase_find_pairs(NULL, &in, 1, &other, &other_count), RB_ERR_INVALID_ARGUMENT);
    assert_null(other);
    assert_int_equal(other_count, -1);
    assert_int_equal(pairs[0].shape_a, 0); // the last result is still there
    assert_int_equal(pairs[0].shape_b, 1);
    rb_broad_phase_destroy(bp);
    rb_broad_phase_destroy(NULL);
    scene_free(s);
}

// ---------------------------------------------------------------- radix sort tests

static int compare_key_then_value(const void *pa, const void *pb)
{
    const rb_key_value *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->value < b->value ? -1 : (a->value > b->value);
}

// value = original position, pad = a checksum of it, so stability and whole-item moves show.
static rb_key_value *items_with_keys(lcg *r, int n, uint64_t key_mask)
{
    rb_key_value *items = malloc(sizeof(rb_key_value) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        uint64_t hi = (uint64_t)(lcg_draw(r) * 4294967296.0), lo = (uint64_t)(lcg_draw(r) * 4294967296.0);
        items[i].key = ((hi << 32) | lo) & key_mask;
        items[i].value = (uint32_t)i;
        items[i].pad = (uint32_t)i * 2654435761u;
    }
    return items;
}

static void assert_sorted_like_reference(const rb_key_value *items, int n, int key_bits, int threads)
{
    rb_key_value *got = malloc(sizeof(rb_key_value) * (size_t)(n > 0 ? n : 1));
    rb_key_value *scratch = malloc(sizeof(rb_key_value) * (size_t)(n > 0 ? n : 1));
    rb_key_value *want = malloc(sizeof(rb_key_value) * (size_t)(n > 0 ? n : 1));
    memcpy(got, items, sizeof(rb_key_value) * (size_t)n);
    memcpy(want, items, sizeof(rb_key_value) * (size_t)n);
    // value = original position, so ordering ties by value is exactly the stable order.
    qsort(want, (size_t)n, sizeof(rb_key_value), compare_key_then_value);
    rb_radix_sort(got, scratch, n, key_bits, threads);
    for (int i = 0; i < n; i++) {
        assert_true(got[i].key == want[i].key);
        assert_int_equal(got[i].value, want[i].value);
        assert_int_equal(got[i].pad, want[i].pad);
    }
    free(got);
    free(scratch);
    free(want);
}

static void test_radix_sort_keeps_equal_keys_in_input_order(void **state)
{
    (void)state;
    lcg r = {20};
    rb_key_value *items = items_with_keys(&r, 50000, 0xf0000000000000f0ull); // few distinct keys
    for (int threads = 1; threads <= 4; threads *= 2)
        assert_sorted_like_reference(items, 50000, 64, threads);
    free(items);
}

static void test_radix_sort_of_zero_and_one_item(void **state)
{
    (void)state;
    rb_key_value one = {42u, 7u, 9u}, scratch;
    rb_radix_sort(&one, &scratch, 0, 64, 2);
    rb_radix_sort(&one, &scratch, 1, 64, 2);
    assert_true(one.key == 42u);
    assert_int_equal(one.value, 7);
    assert_int_equal(one.pad, 9);
}

static void test_radix_sort_with_zero_key_bits_leaves_the_order(void **state)
{
    (void)state;
    lcg r = {21};
    rb_key_value *items = items_with_keys(&r, 20000, 0); // all keys 0: nothing to sort
    assert_sorted_like_reference(items, 20000, 0, 1);
    assert_sorted_like_reference(items, 20000, 0, 4);
    free(items);
}

static void test_radix_sort_of_32_bit_keys(void **state)
{
    (void)state;
    lcg r = {22};
    rb_key_value *items = items_with_keys(&r, 30000, 0xffffffffull);
    for (int threads = 1; threads <= 4; threads *= 2)
        assert_sorted_like_reference(items, 30000, 32, threads);
    assert_sorted_like_reference(items, 1000, 32, 1); // serial size, 8-bit digits
    free(items);
}

static void test_radix_sort_of_full_64_bit_keys(void **state)
{
    (void)state;
    lcg r = {23};
    rb_key_value *items = items_with_keys(&r, 30000, ~0ull);
    items[0].key = ~0ull;
    items[1].key = 0;
    items[2].key = 1ull << 63;
    for (int threads = 1; threads <= 4; threads *= 2)
        assert_sorted_like_reference(items, 30000, 64, threads);
    free(items);
}

static void test_radix_sort_of_pair_keys_with_gaps_between_varying_bits(void **state)
{
    (void)state;
    // (a << 32) | b with a, b < 2^20: bits 20..31 and 52..63 never vary and get no pass.
    lcg r = {24};
    rb_key_value *items = items_with_keys(&r, 300000, 0x000fffff000fffffull);
    for (int threads = 1; threads <= 4; threads *= 2)
        assert_sorted_like_reference(items, 300000, 64, threads);
    free(items);
}

static void test_radix_sort_of_keys_whose_varying_bits_are_far_apart(void **state)
{
    (void)state;
    // One varying bit in every 8 (then every 7): the most digits the pass plan can need.
    lcg r = {26};
    rb_key_value *items = items_with_keys(&r, 20000, 0x0101010101010101ull);
    for (int threads = 1; threads <= 4; threads *= 2)
        assert_sorted_like_reference(items, 20000, 64, threads);
    free(items);
    items = items_with_keys(&r, 20000, 0x8102040810204081ull);
    for (int threads = 1; threads <= 4; threads *= 2)
        assert_sorted_like_reference(items, 20000, 64, threads);
    free(items);
}

static void test_radix_sort_is_identical_for_1_2_and_4_threads_on_a_million_items(void **state)
{
    (void)state;
    int n = 1000000;
    lcg r = {25};
    rb_key_value *items = items_with_keys(&r, n, 0x3fffffull); // 22 bits: many equal keys
    rb_key_value *results[3], *scratch = malloc(sizeof(rb_key_value) * (size_t)n);
    for (int k = 0; k < 3; k++) {
        results[k] = malloc(sizeof(rb_key_value) * (size_t)n);
        memcpy(results[k], items, sizeof(rb_key_value) * (size_t)n);
        rb_radix_sort(results[k], scratch, n, 22, 1 << k);
    }
    for (int i = 1; i < n; i++)
        assert_true(results[0][i - 1].key < results[0][i].key ||
                    (results[0][i - 1].key == results[0][i].key && results[0][i - 1].value < results[0][i].value));
    assert_memory_equal(results[0], results[1], sizeof(rb_key_value) * (size_t)n);
    assert_memory_equal(results[0], results[2], sizeof(rb_key_value) * (size_t)n);
    for (int k = 0; k < 3; k++)
        free(results[k]);
    free(scratch);
    free(items);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_shapes_give_no_pairs),
        cmocka_unit_test(test_one_shape_gives_no_pairs),
        cmocka_unit_test(test_two_overlapping_spheres_give_one_pair),
        cmocka_unit_test(test_many_small_spheres_and_boxes_of_mixed_sizes),
        cmocka_unit_test(test_a_few_huge_dynamic_shapes_among_small_ones),
        cmocka_unit_test(test_many_large_static_tiles_under_small_dynamic_shapes),
        cmocka_unit_test(test_ground_and_tilted_planes_pair_with_shapes_that_reach_them),
        cmocka_unit_test(test_shape_resting_exactly_on_the_plane_counts),
        cmocka_unit_test(test_pen_walls_pair_with_the_spheres_that_touch_them),
        cmocka_unit_test(test_static_kinematic_dynamic_sleeping_and_frozen_mix),
        cmocka_unit_test(test_shapes_of_one_body_never_pair_with_each_other),
        cmocka_unit_test(test_filter_bits_exclude_pairs_both_ways),
        cmocka_unit_test(test_free_slots_are_skipped),
        cmocka_unit_test(test_touching_but_not_overlapping_boxes_count),
        cmocka_unit_test(test_touching_spheres_of_a_lattice_pile_count),
        cmocka_unit_test(test_shapes_at_negative_and_very_large_coordinates),
        cmocka_unit_test(test_millimetre_shapes_spread_over_twenty_kilometres),
        cmocka_unit_test(test_points_and_non_finite_boxes_follow_the_plain_comparisons),
        cmocka_unit_test(test_crowded_cells_pair_all_of_their_shapes),
        cmocka_unit_test(test_everything_asleep_gives_no_pairs),
        cmocka_unit_test(test_the_result_follows_the_input_from_call_to_call),
        cmocka_unit_test(test_missing_arguments_are_rejected_and_leave_the_result),
        cmocka_unit_test(test_radix_sort_keeps_equal_keys_in_input_order),
        cmocka_unit_test(test_radix_sort_of_zero_and_one_item),
        cmocka_unit_test(test_radix_sort_with_zero_key_bits_leaves_the_order),
        cmocka_unit_test(test_radix_sort_of_32_bit_keys),
        cmocka_unit_test(test_radix_sort_of_full_64_bit_keys),
        cmocka_unit_test(test_radix_sort_of_pair_keys_with_gaps_between_varying_bits),
        cmocka_unit_test(test_radix_sort_of_keys_whose_varying_bits_are_far_apart),
        cmocka_unit_test(test_radix_sort_is_identical_for_1_2_and_4_threads_on_a_million_items),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
