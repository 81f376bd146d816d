// rb_collide_box_plane: resting, tilted and deep boxes, reduction of more than four vertices,
// rigid motion, stable ids, and a seeded fuzz against a brute-force distance.
#include "kernels/collide_box_plane.h"
#include "collide_test_util.h"

// ---- hand-computed contacts ----

static rb_geom ground(void) { return plane_of(rb_f3(0.0f, 1.0f, 0.0f), 0.0f); }

static void test_box_resting_flat_gives_its_four_bottom_vertices(void **state)
{
    (void)state;
    // half extents (1, 0.5, 2) at height 0.45: bottom vertices (bit 1 of the index clear: 0, 1, 4, 5)
    // at y -0.05, separation -0.05; points midway at y -0.025; top vertices 0.95 up: none
    rb_geom a = box_at(rb_f3(0.0f, 0.45f, 0.0f), rb_quat_identity(), rb_f3(1.0f, 0.5f, 2.0f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 4);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
    unsigned int ids[4] = {0, 1, 4, 5};
    float xs[4] = {-1.0f, 1.0f, -1.0f, 1.0f};
    float zs[4] = {-2.0f, -2.0f, 2.0f, 2.0f};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(m.points[i].id, ids[i]);
        assert_float_equal(m.points[i].separation, -0.05f, 1e-6f);
        assert_vec_equal(m.points[i].point, xs[i], -0.025f, zs[i], 1e-6f);
    }
}

static void test_box_balanced_on_an_edge_gives_its_two_edge_vertices(void **state)
{
    (void)state;
    // cube of half extent 0.5 turned 45 degrees about z, centre at height 0.7: world height of a
    // vertex 0.7 + (x + y) sin45, lowest for local x = y = -0.5: vertices 0 and 4, at
    // 0.7 - 0.707107 = -0.007107, x 0, z -+0.5; points midway at y -0.003553. The next vertices
    // are at height 0.7: none
    rb_geom a = box_at(rb_f3(0.0f, 0.7f, 0.0f), rot(0.0f, 0.0f, 1.0f, 45.0f), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 2);
    assert_int_equal(m.points[0].id, 0);
    assert_int_equal(m.points[1].id, 4);
    assert_float_equal(m.points[0].separation, -0.0071068f, 1e-6f);
    assert_float_equal(m.points[1].separation, -0.0071068f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, -0.0035534f, -0.5f, 1e-6f);
    assert_vec_equal(m.points[1].point, 0.0f, -0.0035534f, 0.5f, 1e-6f);
}

static void test_box_on_a_corner_gives_one_point(void **state)
{
    (void)state;
    // cube of half extent 0.5 with its diagonal (1, 1, 1) turned onto +y (about (-1, 0, 1)/sqrt2 by
    // acos(1/sqrt3) = 54.7356 degrees): vertex 0 (local (-1, -1, -1) * 0.5) is lowest, 0.5 sqrt3 =
    // 0.866025 below the centre; the next three are 0.5 sqrt3 / 3 = 0.288675 below. Centre at 0.85:
    // vertex 0 at -0.016025, point midway at (0, -0.008013, 0); the others 0.561 up: none
    rb_float4 q = rb_quat_axis_angle(rb_f3(-1.0f, 0.0f, 1.0f), acosf(1.0f / sqrtf(3.0f)));
    rb_geom a = box_at(rb_f3(0.0f, 0.85f, 0.0f), q, rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 1);
    assert_int_equal(m.points[0].id, 0);
    assert_float_equal(m.points[0].separation, -0.0160254f, 1e-6f);
    assert_vec_equal(m.points[0].point, 0.0f, -0.0080127f, 0.0f, 1e-6f);
}

static void test_box_within_the_margin_gives_speculative_points_and_none_beyond(void **state)
{
    (void)state;
    // cube of half extent 0.5 at height 0.55: bottom separation 0.05. Margin 0.1: four points at
    // y 0.025; margin 0.04: none
    rb_geom a = box_at(rb_f3(3.0f, 0.55f, -1.0f), rb_quat_identity(), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.1f, &m);
    assert_int_equal(m.count, 4);
    for (int i = 0; i < 4; ++i) {
        assert_float_equal(m.points[i].separation, 0.05f, 1e-6f);
        assert_float_equal(m.points[i].point.y, 0.025f, 1e-6f);
    }
    rb_collide_box_plane(&a, &b, 0.04f, &m);
    assert_int_equal(m.count, 0);
    assert_vec_equal(m.normal, 0.0f, -1.0f, 0.0f, 0.0f);
}

static void test_ceiling_plane_touches_the_top_vertices_with_an_upward_normal(void **state)
{
    (void)state;
    // n = (0, -1, 0), offset -2: solid where y >= 2. Cube of half extent 0.5 at height 1.6: top
    // vertices (bit 1 set: 2, 3, 6, 7) at y 2.1, height -2.1 + 2 = -0.1; normal (0, 1, 0); points
    // midway at y 2.05
    rb_geom a = box_at(rb_f3(0.0f, 1.6f, 0.0f), rb_quat_identity(), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = plane_of(rb_f3(0.0f, -1.0f, 0.0f), -2.0f);
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 4);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 0.0f);
    unsigned int ids[4] = {2, 3, 6, 7};
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(m.points[i].id, ids[i]);
        assert_float_equal(m.points[i].separation, -0.1f, 1e-6f);
        assert_float_equal(m.points[i].point.y, 2.05f, 1e-6f);
    }
}

static void test_box_sunk_below_the_plane_keeps_four_points_including_the_deepest(void **state)
{
    (void)state;
    // cube of half extent 0.5, tilted slightly so vertex 0 is deepest, centre 1 below the ground:
    // all eight vertices penetrate, reduced to four; the deepest (vertex 0, about -1.5) is kept
    rb_geom a = box_at(rb_f3(0.0f, -1.0f, 0.0f), rot(-1.0f, 0.0f, 1.0f, 5.0f), rb_f3(0.5f, 0.5f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0};
    rb_collide_box_plane(&a, &b, 0.0f, &m);
    assert_int_equal(m.count, 4);
    assert_int_equal(m.points[0].id, 0);
    float deepest = 0.0f;
    for (int i = 0; i < 4; ++i) {
        assert_true(rb_is_finite3(m.points[i].point));
        for (int j = 0; j < i; ++j)
            assert_true(m.points[i].id != m.points[j].id);
        deepest = rb_minf(deepest, m.points[i].separation);
    }
    assert_float_equal(deepest, m.points[0].separation, 0.0f);
    assert_true(deepest < -1.5f);
}

static void test_tilted_thin_plate_with_large_margin_gives_four_face_points_including_the_deepest(void **state)
{
    (void)state;
    // a thin plate (half height 0.05) with a margin (0.3) larger than its thickness: all eight vertices
    // are within the margin, but only the incident face's four are contact points. The deepest vertex
    // is among them, and the same input gives the same points.
    rb_geom a = box_at(rb_f3(0.0f, 0.06f, 0.0f), rot(1.0f, 0.0f, 1.0f, 1.0f), rb_f3(0.5f, 0.05f, 0.5f));
    rb_geom b = ground();
    rb_manifold m = {0}, m2 = {0};
    rb_collide_box_plane(&a, &b, 0.3f, &m);
    rb_collide_box_plane(&a, &b, 0.3f, &m2);
    assert_int_equal(m.count, 4);
    float deepest = 1.0f;
    for (int i = 0; i < 8; ++i) {
        rb_float3 v = rb_xform_point(a.xf, rb_f3((i & 1) ? 0.5f : -0.5f, (i & 2) ? 0.05f : -0.05f, (i & 4) ? 0.5f : -0.5f));
        deepest = rb_minf(deepest, v.y);
    }
    float kept_deepest = 1.0f;
    for (int i = 0; i < 4; ++i) {
        kept_deepest = rb_minf(kept_deepest, m.points[i].separation);
        assert_int_equal(m2.points[i].id, m.points[i].id);
        assert_true(m.points[i].separation < 0.3f);
        for (int j = 0; j < i; ++j)
            assert_true(m.points[i].id != m.points[j].id);
    }
    assert_float_equal(kept_deepest, deepest, 1e-6f);
}

static void test_thin_plate_lying_flat_keeps_its_four_bottom_corners(void **state)
{
    (void)state;
    // a 1 x 0.1 x 1 plate, flat, 1 cm above the ground, margin 0.3 m > its thickness: all eight
    // vertices are candidates. The support is the bottom face, so the four kept points must be the
    // bottom corners (ids with bit 1 clear: 0, 1, 4, 5) — a top vertex in their place would leave a
    // triangle with the centre of mass on its edge. Tilted by 1 degree it still keeps the bottom face.
    for (int tilt = 0; tilt < 2; ++tilt) {
        rb_float4 q = tilt ? rb_quat_axis_angle(rb_f3(1.0f, 0.0f, 0.0f), 0.0174533f) : rb_quat_identity();
        rb_geom a = box_at(rb_f3(0.0f, 0.06f, 0.0f), q, rb_f3(0.5f, 0.05f, 0.5f));
        rb_geom b = ground();
        rb_manifold m = {0};
        rb_collide_box_plane(&a, &b, 0.3f, &m);
        assert_int_equal(m.count, 4);
        for (int i = 0; i < 4; ++i)
            assert_int_equal(m.points[i].id & 2u, 0u);
    }
}

static void test_contact_moves_with_a_rigidly_moved_configuration(void **state)
{
    (void)state;
    // a resting box (four points) and a box on its edge (two points), each carried by 50 motions
    rng_state = 37u;
    rb_geom b = ground();
    rb_geom boxes[2] = {box_at(rb_f3(0.3f, 0.45f, -0.2f), rot(0.0f, 1.0f, 0.0f, 20.0f), rb_f3(1.0f, 0.5f, 0.7f)),
                        box_at(rb_f3(0.0f, 0.7f, 0.0f), rot(0.0f, 0.0f, 1.0f, 45.0f), rb_f3(0.5f, 0.5f, 0.5f))};
    for (int k = 0; k < 2; ++k) {
        rb_manifold m0 = {0};
        rb_collide_box_plane(&boxes[k], &b, 0.1f, &m0);
        assert_int_equal(m0.count, 4 - 2 * k);
        assert_contact_moves_rigidly(rb_collide_box_plane, boxes[k], b, 0.1f, &m0, 50, 5e-5f);
    }
}

static void test_vertex_ids_are_stable_under_tiny_perturbations(void **state)
{
    (void)state;
    // a box resting flat, jittered by 1e-4 in position and attitude: always the bottom four, 0 1 4 5
    rng_state = 43u;
    rb_geom b = ground();
    for (int i = 0; i < 100; ++i) {
        rb_float4 q = rb_quat_axis_angle(random_vec(-1.0f, 1.0f), frand(-1e-4f, 1e-4f));
        rb_geom a = box_at(rb_f3(frand(-1e-4f, 1e-4f), 0.49f + frand(-1e-4f, 1e-4f), frand(-1e-4f, 1e-4f)), q, rb_f3(1.0f, 0.5f, 1.0f));
        rb_manifold m = {0};
        rb_collide_box_plane(&a, &b, 0.05f, &m);
        assert_int_equal(m.count, 4);
        assert_int_equal(m.points[0].id, 0);
        assert_int_equal(m.points[1].id, 1);
        assert_int_equal(m.points[2].id, 4);
        assert_int_equal(m.points[3].id, 5);
    }
}

// ---- fuzz ----

static void test_random_boxes_and_planes_agree_with_brute_force_distance(void **state)
{
    (void)state;
    // 2000 seeded pairs (one in eight resting almost flat); the brute force samples the box surface on
    // a grid that includes its vertices, so it is exact
    rng_state = 555u;
    const float margin = 0.05f;
    int contacts = 0, four = 0;
    for (int i = 0; i < 2000; ++i) {
        rb_float3 h = random_vec(0.05f, 1.0f);
        rb_float4 q = i % 8 == 0 ? rb_quat_axis_angle(random_vec(-1.0f, 1.0f), frand(0.0f, 1e-3f)) : random_rotation();
        rb_geom a = box_at(random_vec(-3.0f, 3.0f), q, h);
        rb_float3 n = i % 8 == 0 ? rb_f3(0.0f, 1.0f, 0.0f) : rb_normalize(random_vec(-1.0f, 1.0f));
        float extent = fabsf(rb_dot(n, rb_rotate(q, rb_f3(h.x, 0.0f, 0.0f)))) + fabsf(rb_dot(n, rb_rotate(q, rb_f3(0.0f, h.y, 0.0f)))) +
                       fabsf(rb_dot(n, rb_rotate(q, rb_f3(0.0f, 0.0f, h.z))));
        float height = extent + frand(-1.5f, 0.3f);  // of the centre above the plane
        rb_geom b = plane_of(n, rb_dot(n, a.xf.p) - height);
        rb_manifold m = {0};
        rb_collide_box_plane(&a, &b, margin, &m);
        contacts += check_manifold(&a, &b, margin, &m, brute_plane_distance(&a, &b), 1e-5, 1e-5, 4);
        four += m.count == 4;
    }
    assert_true(contacts > 1000);
    assert_true(four > 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_resting_flat_gives_its_four_bottom_vertices),
        cmocka_unit_test(test_box_balanced_on_an_edge_gives_its_two_edge_vertices),
        cmocka_unit_test(test_box_on_a_corner_gives_one_point),
        cmocka_unit_test(test_box_within_the_margin_gives_speculative_points_and_none_beyond),
        cmocka_unit_test(test_ceiling_plane_touches_the_top_vertices_with_an_upward_normal),
        cmocka_unit_test(test_box_sunk_below_the_plane_keeps_four_points_including_the_deepest),
        cmocka_unit_test(test_tilted_thin_plate_with_large_margin_gives_four_face_points_including_the_deepest),
        cmocka_unit_test(test_thin_plate_lying_flat_keeps_its_four_bottom_corners),
        cmocka_unit_test(test_contact_moves_with_a_rigidly_moved_configuration),
        cmocka_unit_test(test_vertex_ids_are_stable_under_tiny_perturbations),
        cmocka_unit_test(test_random_boxes_and_planes_agree_with_brute_force_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
