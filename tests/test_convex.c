// Convex hulls and convex shapes through the API: hulls kept by the world and shared by shapes, their
// mass properties, bad input refused with nothing changed.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "physics_util.h"

static rb_world_id make_world(void)
{
    rb_world_def d = pu_world_def(false);
    d.gravity = v3(0.0f, 0.0f, 0.0f);
    return pu_make_world_from(&d);
}

// The 8 corners of a box of half-extents h, centred on c.
static void box_corners(rb_vec3 h, rb_vec3 c, rb_vec3 out[8])
{
    for (int i = 0; i < 8; ++i)
        out[i] = v3(c.x + (i & 1 ? h.x : -h.x), c.y + (i & 2 ? h.y : -h.y), c.z + (i & 4 ? h.z : -h.z));
}

static rb_hull_id make_hull(rb_world_id w, const rb_vec3 *pts, int n)
{
    rb_hull_def d = rb_default_hull_def();
    d.points = pts;
    d.count = n;
    rb_hull_id h;
    RB_CHECK(rb_compute_hull(w, &d, &h));
    return h;
}

static rb_hull_id make_box_hull(rb_world_id w, rb_vec3 half, rb_vec3 centre)
{
    rb_vec3 c[8];
    box_corners(half, centre, c);
    return make_hull(w, c, 8);
}

static rb_body_id body_at(rb_world_id w, rb_vec3 p, rb_quat q)
{
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, p, q, 0.0f);
    rb_body_id b;
    RB_CHECK(rb_create_body(w, &bd, &b));
    return b;
}

static rb_shape_id add_convex(rb_body_id b, rb_hull_id h, float radius)
{
    rb_shape_def sd = rb_default_shape_def();
    rb_convex cv = {h, radius};
    rb_shape_id s;
    RB_CHECK(rb_create_convex_shape(b, &sd, &cv, &s));
    return s;
}

static void test_a_box_cloud_gives_a_hull_of_eight_vertices_twelve_edges_and_six_faces(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // the corners and, on every face, its centre: the face centres are not vertices and the coplanar
    // triangles merge into quadrilaterals
    rb_vec3 pts[14];
    box_corners(v3(1.0f, 0.5f, 0.25f), v3(0, 0, 0), pts);
    pts[8] = v3(1.0f, 0, 0), pts[9] = v3(-1.0f, 0, 0), pts[10] = v3(0, 0.5f, 0);
    pts[11] = v3(0, -0.5f, 0), pts[12] = v3(0, 0, 0.25f), pts[13] = v3(0, 0, -0.25f);
    rb_hull_id h = make_hull(w, pts, 14);
    rb_hull_info info;
    RB_CHECK(rb_hull_get_info(h, &info));
    assert_int_equal(info.vertex_count, 8);
    assert_int_equal(info.edge_count, 12);
    assert_int_equal(info.face_count, 6);
    // V = 2 x 1 x 0.5 = 1 m³; per unit mass Ixx = (b² + c²)/12 with b = 1, c = 0.5
    assert_float_equal(info.volume, 1.0f, 1e-5f);
    assert_float_equal(info.inertia_diag.x, (1.0f + 0.25f) / 12.0f, 1e-6f);
    assert_float_equal(info.inertia_diag.y, (4.0f + 0.25f) / 12.0f, 1e-6f);
    assert_float_equal(info.inertia_diag.z, (4.0f + 1.0f) / 12.0f, 1e-6f);
    assert_float_equal(info.inertia_offdiag.x, 0.0f, 1e-6f);
    int count = 0;
    RB_CHECK(rb_hull_get_vertices(h, NULL, 0, &count));
    assert_int_equal(count, 8);
    // every face is a quadrilateral whose vertices lie on its plane, normal outwards
    for (int f = 0; f < 6; ++f) {
        rb_plane p;
        int idx[8], n = 0;
        RB_CHECK(rb_hull_get_face(h, f, &p, idx, 8, &n));
        assert_int_equal(n, 4);
        rb_vec3 v[8];
        RB_CHECK(rb_hull_get_vertices(h, v, 8, NULL));
        for (int i = 0; i < n; ++i)
            assert_float_equal(v3_dot(p.normal, v[idx[i]]), p.offset, 1e-6f);
        assert_true(p.offset > 0.0f);
    }
    rb_destroy_world(w);
}

static void test_a_convex_box_has_the_mass_and_inertia_of_the_box_shape(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_vec3 half = v3(0.5f, 0.25f, 0.1f);
    rb_quat q = {0.2f, 0.4f, 0.1f, 0.8888194f}; // a turned body
    rb_body_id a = body_at(w, v3(0, 0, 0), q), b = body_at(w, v3(3, 0, 0), q);
    add_convex(a, make_box_hull(w, half, v3(0, 0, 0)), 0.0f);
    rb_shape_def sd = rb_default_shape_def();
    rb_box box = {half};
    rb_shape_id s;
    RB_CHECK(rb_create_box_shape(b, &sd, &box, &s));
    rb_mass_data ma, mb;
    RB_CHECK(rb_body_get_mass_data(a, &ma));
    RB_CHECK(rb_body_get_mass_data(b, &mb));
    // m = 1000 kg/m³ x 0.1 m³ = 100 kg
    assert_float_equal(ma.mass, 100.0f, 1e-3f);
    assert_float_equal(ma.mass, mb.mass, 1e-3f);
    assert_float_equal(ma.inertia.x, mb.inertia.x, 1e-4f);
    assert_float_equal(ma.inertia.y, mb.inertia.y, 1e-4f);
    assert_float_equal(ma.inertia.z, mb.inertia.z, 1e-4f);
    assert_float_equal(ma.center.x, 0.0f, 1e-6f);
    rb_destroy_world(w);
}

static void test_a_hull_off_its_origin_puts_the_centre_of_mass_at_its_centroid(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // a 1 m cube whose cloud is centred on (2, 0, 0) of the shape frame, the shape turned 90° about z
    // and placed at (0, 1, 0): its centroid is at (0, 1, 0) + Rz(90°) (2, 0, 0) = (0, 3, 0) in the body
    rb_body_id b = body_at(w, v3(0, 0, 0), quat_identity());
    rb_shape_def sd = rb_default_shape_def();
    sd.local_position = v3(0, 1, 0);
    sd.local_rotation = (rb_quat){0.0f, 0.0f, 0.70710678f, 0.70710678f};
    rb_convex cv = {make_box_hull(w, v3(0.5f, 0.5f, 0.5f), v3(2, 0, 0)), 0.0f};
    rb_shape_id s;
    RB_CHECK(rb_create_convex_shape(b, &sd, &cv, &s));
    rb_mass_data md;
    RB_CHECK(rb_body_get_mass_data(b, &md));
    assert_float_equal(md.mass, 1000.0f, 1e-2f);
    assert_float_equal(md.center.x, 0.0f, 1e-5f);
    assert_float_equal(md.center.y, 3.0f, 1e-5f);
    assert_float_equal(md.center.z, 0.0f, 1e-5f);
    // about its own centre a cube is isotropic: m a² / 6 = 1000 / 6
    assert_float_equal(md.inertia.x, 1000.0f / 6.0f, 1e-2f);
    assert_float_equal(md.inertia.z, 1000.0f / 6.0f, 1e-2f);
    assert_float_equal(md.inertia_products.x, 0.0f, 1e-3f);
    rb_destroy_world(w);
}

static void test_a_regular_tetrahedron_has_its_analytic_inertia(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // alternate corners of the cube [-1, 1]³: edge a = 2√2, volume a³/(6√2) = 8/3, and about its
    // centroid (the origin) I = m a²/20 per axis = 0.4 per unit mass, no products
    rb_vec3 pts[4] = {v3(1, 1, 1), v3(1, -1, -1), v3(-1, 1, -1), v3(-1, -1, 1)};
    rb_hull_info info;
    RB_CHECK(rb_hull_get_info(make_hull(w, pts, 4), &info));
    assert_int_equal(info.vertex_count, 4);
    assert_int_equal(info.face_count, 4);
    assert_float_equal(info.volume, 8.0f / 3.0f, 1e-5f);
    assert_float_equal(info.inertia_diag.x, 0.4f, 1e-6f);
    assert_float_equal(info.inertia_diag.y, 0.4f, 1e-6f);
    assert_float_equal(info.inertia_offdiag.z, 0.0f, 1e-6f);
    rb_destroy_world(w);
}

static void test_many_shapes_share_one_hull_and_it_outlives_them_only_when_asked(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_hull_id h = make_box_hull(w, v3(0.5f, 0.5f, 0.5f), v3(0, 0, 0));
    rb_shape_id s[3];
    rb_body_id b[3];
    for (int i = 0; i < 3; ++i) {
        b[i] = body_at(w, v3((float)i * 2.0f, 0, 0), quat_identity());
        s[i] = add_convex(b[i], h, 0.0f);
    }
    rb_convex got;
    RB_CHECK(rb_shape_get_convex(s[2], &got));
    assert_true(got.hull.index1 == h.index1 && got.hull.generation == h.generation);
    // in use: refused, nothing changes
    assert_int_equal(rb_destroy_hull(h), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "used by 3"));
    assert_true(rb_hull_is_valid(h));
    RB_CHECK(rb_destroy_shape(s[0]));
    RB_CHECK(rb_destroy_body(b[1])); // a body's shapes go with it
    assert_int_equal(rb_destroy_hull(h), RB_ERR_INVALID_ARGUMENT);
    RB_CHECK(rb_destroy_shape(s[2]));
    int hulls = 0;
    RB_CHECK(rb_world_get_hull_count(w, &hulls));
    assert_int_equal(hulls, 1);
    RB_CHECK(rb_destroy_hull(h));
    assert_false(rb_hull_is_valid(h));
    RB_CHECK(rb_world_get_hull_count(w, &hulls));
    assert_int_equal(hulls, 0);
    rb_hull_info info;
    assert_int_equal(rb_hull_get_info(h, &info), RB_ERR_STALE_ID);
    rb_destroy_world(w);
}

static void test_destroying_a_hull_keeps_the_shapes_of_the_others_intact(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // three hulls in the pool; the first goes and the records after it move down
    rb_hull_id h0 = make_box_hull(w, v3(0.1f, 0.1f, 0.1f), v3(0, 0, 0));
    rb_hull_id h1 = make_box_hull(w, v3(0.2f, 0.3f, 0.4f), v3(0, 0, 0));
    rb_vec3 tet[4] = {v3(1, 1, 1), v3(1, -1, -1), v3(-1, 1, -1), v3(-1, -1, 1)};
    rb_hull_id h2 = make_hull(w, tet, 4);
    rb_body_id b1 = body_at(w, v3(0, 0, 0), quat_identity()), b2 = body_at(w, v3(5, 0, 0), quat_identity());
    rb_shape_id s1 = add_convex(b1, h1, 0.0f), s2 = add_convex(b2, h2, 0.0f);
    RB_CHECK(rb_destroy_hull(h0));
    rb_convex c1, c2;
    RB_CHECK(rb_shape_get_convex(s1, &c1));
    RB_CHECK(rb_shape_get_convex(s2, &c2));
    assert_true(c1.hull.index1 == h1.index1 && c2.hull.index1 == h2.index1);
    rb_vec3 v[8];
    int n;
    RB_CHECK(rb_hull_get_vertices(c2.hull, v, 8, &n));
    assert_int_equal(n, 4);
    rb_hull_info info;
    RB_CHECK(rb_hull_get_info(h1, &info));
    assert_float_equal(info.volume, 0.4f * 0.6f * 0.8f, 1e-6f);
    // a ray down onto body 1 still meets its 0.3 m half-height, and one onto the tetrahedron its vertex
    rb_ray_hit hit;
    RB_CHECK(rb_world_cast_ray(w, v3(0, 2, 0), v3(0, -4, 0), 0xffffffffu, &hit));
    assert_true(hit.hit);
    assert_float_equal(hit.point.y, 0.3f, 1e-5f);
    RB_CHECK(rb_world_cast_ray(w, v3(6, 2, 1), v3(0, -4, 0), 0xffffffffu, &hit));
    assert_true(hit.hit);
    assert_float_equal(hit.point.y, 1.0f, 1e-5f); // the vertex (1, 1, 1) of the tetrahedron at (5, 0, 0)
    rb_destroy_world(w);
}

static void test_bad_clouds_and_defs_are_refused_with_the_reason(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_hull_def d = rb_default_hull_def();
    rb_hull_id h;
    rb_vec3 flat[5] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 0, 1), v3(1, 0, 1), v3(0.5f, 0, 0.5f)};
    d.points = flat;
    d.count = 5;
    assert_int_equal(rb_compute_hull(w, &d, &h), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "plan")); // "in a plane" / "planar"
    rb_vec3 line[4] = {v3(0, 0, 0), v3(1, 1, 1), v3(2, 2, 2), v3(3, 3, 3)};
    d.points = line;
    d.count = 4;
    assert_int_equal(rb_compute_hull(w, &d, &h), RB_ERR_INVALID_ARGUMENT);
    rb_vec3 bad[4] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, NAN, 0), v3(0, 0, 1)};
    d.points = bad;
    assert_int_equal(rb_compute_hull(w, &d, &h), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "point 2"));
    d.points = flat;
    d.count = 3;
    assert_int_equal(rb_compute_hull(w, &d, &h), RB_ERR_INVALID_ARGUMENT);
    d.count = 5;
    d.max_vertices = 3;
    assert_int_equal(rb_compute_hull(w, &d, &h), RB_ERR_INVALID_ARGUMENT);
    rb_hull_def raw;
    memset(&raw, 0, sizeof raw);
    raw.points = flat;
    raw.count = 5;
    assert_int_equal(rb_compute_hull(w, &raw, &h), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_compute_hull(w, NULL, &h), RB_ERR_INVALID_ARGUMENT);
    // a convex shape with a hull of another world, a negative radius, a stale hull
    rb_world_id other = make_world();
    rb_hull_id foreign = make_box_hull(other, v3(1, 1, 1), v3(0, 0, 0));
    rb_body_id b = body_at(w, v3(0, 0, 0), quat_identity());
    rb_shape_def sd = rb_default_shape_def();
    rb_convex cv = {foreign, 0.0f};
    rb_shape_id s;
    assert_int_equal(rb_create_convex_shape(b, &sd, &cv, &s), RB_ERR_INVALID_ARGUMENT);
    cv.hull = make_box_hull(w, v3(1, 1, 1), v3(0, 0, 0));
    cv.radius = -0.1f;
    assert_int_equal(rb_create_convex_shape(b, &sd, &cv, &s), RB_ERR_INVALID_ARGUMENT);
    RB_CHECK(rb_destroy_hull(cv.hull));
    cv.radius = 0.0f;
    assert_int_equal(rb_create_convex_shape(b, &sd, &cv, &s), RB_ERR_STALE_ID);
    int count = -1;
    RB_CHECK(rb_body_get_shape_count(b, &count));
    assert_int_equal(count, 0);
    rb_destroy_world(other);
    // a hull of a destroyed world is stale
    assert_false(rb_hull_is_valid(foreign));
    rb_destroy_world(w);
}

static void test_a_rounded_hull_weighs_what_steiners_formula_says(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // a unit cube grown by r = 0.1: V = 1 + 6 r + 3 pi r² + 4/3 pi r³ (faces, edges, corners)
    rb_body_id b = body_at(w, v3(0, 0, 0), quat_identity());
    add_convex(b, make_box_hull(w, v3(0.5f, 0.5f, 0.5f), v3(0, 0, 0)), 0.1f);
    rb_mass_data md;
    RB_CHECK(rb_body_get_mass_data(b, &md));
    double r = 0.1, v = 1.0 + 6.0 * r + 3.0 * PU_PI * r * r + 4.0 / 3.0 * PU_PI * r * r * r;
    assert_float_equal(md.mass, (float)(1000.0 * v), 0.01f);
    rb_destroy_world(w);
}


// ---- physics: what a polyhedron does on the ground, on a slope, in a stack -------------------------

static rb_body_id convex_body(rb_world_id w, rb_hull_id h, rb_vec3 p, rb_quat q, float mass, float friction)
{
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, p, q, mass);
    rb_body_id b;
    RB_CHECK(rb_create_body(w, &bd, &b));
    rb_shape_def sd = pu_material(friction, 0.0f);
    rb_convex cv = {h, 0.0f};
    rb_shape_id s;
    RB_CHECK(rb_create_convex_shape(b, &sd, &cv, &s));
    return b;
}

// The shortest rotation taking unit vector a to unit vector b.
static rb_quat arc(rb_vec3 a, rb_vec3 b)
{
    rb_vec3 c = v3_cross(a, b);
    float w = 1.0f + v3_dot(a, b);
    float l = sqrtf(v3_dot(c, c) + w * w);
    return (rb_quat){c.x / l, c.y / l, c.z / l, w / l};
}

static void test_a_cube_given_as_a_hull_rests_as_the_box_does(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    // both dropped from 0.5 m above their resting height: the unit cube rests at y = 0.5 within the
    // solver's resting depth, and the hull where the box does
    rb_body_id hull = convex_body(w, make_box_hull(w, v3(0.5f, 0.5f, 0.5f), v3(0, 0, 0)), v3(0, 1.0f, 0),
                                  quat_identity(), 1.0f, 0.6f);
    rb_body_id box = pu_box(w, v3(3, 1.0f, 0), quat_identity(), v3(0.5f, 0.5f, 0.5f), 1.0f, 0.6f, 0.0f);
    pu_step(w, 180);
    float depth = pu_resting_depth(w);
    assert_float_equal(pu_position(hull).y, 0.5f, depth + 1e-4f);
    assert_float_equal(pu_position(hull).y, pu_position(box).y, 1e-3f);
    assert_true(v3_len(pu_velocity(hull)) < 1e-3f);
    rb_destroy_world(w);
}

static void test_a_cube_given_as_a_hull_slides_down_a_slope_with_kinetic_friction(void **state)
{
    (void)state;
    // 30° slope, mu = 0.3 (tan 30° = 0.577 > mu: it slides): a = g (sin 30° - 0.3 cos 30°) = 2.356 m/s²
    rb_world_id w = pu_make_world(false);
    float th = (float)(PU_PI / 6.0);
    rb_vec3 n = v3(-sinf(th), cosf(th), 0.0f), down = v3(cosf(th), sinf(th), 0.0f);
    down = v3_scale(down, -1.0f); // along the slope, downhill: (-cos, -sin, 0)
    pu_add_plane(w, n, 0.0f, 0.3f, 0.0f);
    rb_quat q = {0.0f, 0.0f, sinf(0.5f * th), cosf(0.5f * th)}; // a face on the slope
    rb_body_id b = convex_body(w, make_box_hull(w, v3(0.25f, 0.25f, 0.25f), v3(0, 0, 0)), v3_scale(n, 0.25f), q,
                               1.0f, 0.3f);
    pu_step(w, 30); // settle on the slope, then measure over 1 s
    float v0 = v3_dot(pu_velocity(b), down);
    pu_step(w, 60);
    float v1 = v3_dot(pu_velocity(b), down);
    float a = v1 - v0, expected = PU_G * (sinf(th) - 0.3f * cosf(th));
    print_message("hull cube on 30 deg, mu 0.3: a = %.4f m/s^2 (expected %.4f)\n", a, expected);
    assert_float_equal(a, expected, 0.02f * expected);
    rb_destroy_world(w);
}

static void test_a_tetrahedron_dropped_askew_comes_to_rest_on_a_face(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    // a regular tetrahedron of edge a = 2√2 · 0.3: inradius a / √24 = 0.17321 m; dropped turned from 0.7 m
    rb_vec3 t[4] = {v3(0.3f, 0.3f, 0.3f), v3(0.3f, -0.3f, -0.3f), v3(-0.3f, 0.3f, -0.3f), v3(-0.3f, -0.3f, 0.3f)};
    rb_hull_id h = make_hull(w, t, 4);
    rb_body_id b = convex_body(w, h, v3(0, 1.0f, 0), (rb_quat){0.3f, 0.1f, 0.2f, 0.9273618f}, 1.0f, 0.6f);
    pu_step(w, 300);
    float inradius = 0.6f * sqrtf(2.0f) / sqrtf(24.0f);
    assert_float_equal(pu_position(b).y, inradius, pu_resting_depth(w) + 1e-3f);
    assert_true(v3_len(pu_velocity(b)) < 1e-2f);
    // one face lies flat: its normal turned into the world points straight down within 1°
    float lowest = 1.0f;
    for (int f = 0; f < 4; ++f) {
        rb_plane p;
        RB_CHECK(rb_hull_get_face(h, f, &p, NULL, 0, NULL));
        lowest = fminf(lowest, quat_rotate(pu_rotation(b), p.normal).y);
    }
    assert_true(lowest < -cosf((float)(PU_PI / 180.0)));
    rb_destroy_world(w);
}

// An icosahedron of circumradius 0.2 φ-scaled (vertices (0, ±0.2, ±0.2φ) and cyclic), resting on a face
// of a slope of angle `deg` (degrees) with mu = 1; returns how far its centre moved in 3 s.
static float icosahedron_on_slope(float deg, float *turned)
{
    rb_world_id w = pu_make_world(false);
    float th = deg * (float)(PU_PI / 180.0), g = 0.5f * (1.0f + sqrtf(5.0f));
    rb_vec3 n = v3(-sinf(th), cosf(th), 0.0f);
    pu_add_plane(w, n, 0.0f, 1.0f, 0.0f);
    rb_vec3 v[12];
    int k = 0;
    for (int s1 = -1; s1 <= 1; s1 += 2)
        for (int s2 = -1; s2 <= 1; s2 += 2) {
            v[k++] = v3(0.0f, 0.2f * (float)s1, 0.2f * g * (float)s2);
            v[k++] = v3(0.2f * (float)s1, 0.2f * g * (float)s2, 0.0f);
            v[k++] = v3(0.2f * g * (float)s2, 0.0f, 0.2f * (float)s1);
        }
    rb_hull_id h = make_hull(w, v, 12);
    rb_hull_info info;
    RB_CHECK(rb_hull_get_info(h, &info));
    assert_int_equal(info.face_count, 20);
    rb_plane face;
    int idx[3], count = 0;
    RB_CHECK(rb_hull_get_face(h, 0, &face, idx, 3, &count));
    assert_int_equal(count, 3);
    // face 0 turned onto the slope, then about the slope's normal until the midpoint of its first edge
    // lies straight downhill from the face's centre (it tips over that edge), the centre its inradius up
    rb_quat q = arc(face.normal, v3_scale(n, -1.0f));
    rb_vec3 fv[3];
    for (int i = 0; i < 3; ++i)
        fv[i] = v[idx[i]];
    rb_vec3 centre = v3_scale(v3_add(v3_add(fv[0], fv[1]), fv[2]), 1.0f / 3.0f);
    rb_vec3 out = quat_rotate(q, v3_sub(v3_scale(v3_add(fv[0], fv[1]), 0.5f), centre));
    rb_vec3 downhill = v3(-cosf(th), -sinf(th), 0.0f);
    float turn = atan2f(v3_dot(v3_cross(out, downhill), n), v3_dot(out, downhill));
    rb_quat about_n = {n.x * sinf(0.5f * turn), n.y * sinf(0.5f * turn), n.z * sinf(0.5f * turn), cosf(0.5f * turn)};
    rb_quat r = about_n; // q' = about_n * q
    q = (rb_quat){r.w * q.x + r.x * q.w + r.y * q.z - r.z * q.y, r.w * q.y - r.x * q.z + r.y * q.w + r.z * q.x,
                  r.w * q.z + r.x * q.y - r.y * q.x + r.z * q.w, r.w * q.w - r.x * q.x - r.y * q.y - r.z * q.z};
    rb_vec3 p0 = v3_scale(n, face.offset + 1e-4f);
    rb_body_id b = convex_body(w, h, p0, q, 1.0f, 1.0f);
    pu_step(w, 180);
    *turned = (float)quat_angle_between(q, pu_rotation(b));
    float moved = v3_dist(pu_position(b), p0);
    rb_destroy_world(w);
    return moved;
}

static void test_an_icosahedron_tumbles_down_a_slope_past_its_tipping_angle_and_rests_below_it(void **state)
{
    (void)state;
    // Resting on a face with an edge across the slope, it tips over that edge once the slope exceeds
    // atan(face inradius / body inradius) = atan(0.2887 / 0.7558) = 20.9° (edge length a = 0.4, both
    // radii in units of a); with mu = 1 > tan 30° it cannot slide, so on 30° it tumbles, turning as it
    // goes, and on 15° it stays.
    float turned15, turned30;
    float moved15 = icosahedron_on_slope(15.0f, &turned15), moved30 = icosahedron_on_slope(30.0f, &turned30);
    print_message("icosahedron: 15 deg moved %.4f m, turned %.3f rad; 30 deg moved %.3f m, turned %.3f rad\n",
                  moved15, turned15, moved30, turned30);
    assert_true(moved15 < 2e-3f);
    assert_true(turned15 < 0.01f);
    assert_true(moved30 > 1.0f);
    assert_true(turned30 > 0.5f);
    // and the threshold itself, 2° either side of 20.9°
    float turned19, turned23;
    float moved19 = icosahedron_on_slope(18.9f, &turned19), moved23 = icosahedron_on_slope(22.9f, &turned23);
    print_message("icosahedron: 18.9 deg moved %.4f m; 22.9 deg moved %.3f m\n", moved19, moved23);
    assert_true(moved19 < 2e-3f && turned19 < 0.01f);
    assert_true(moved23 > 0.3f);
}

static void test_a_pyramid_of_hull_cubes_stands_as_the_box_pyramid_does(void **state)
{
    (void)state;
    // the standard pyramid (bench-scenes.md: 385 unit cubes in 10 layers) with every cube the hull of
    // its 8 corners, one hull shared by all: after 10 s (600 steps, sleeping off) no cube has moved more
    // than 1 cm, as asked of the box pyramid
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    rb_hull_id h = make_box_hull(w, v3(0.5f, 0.5f, 0.5f), v3(0, 0, 0));
    rb_body_id bodies[385];
    rb_vec3 start[385];
    int n = 0;
    for (int k = 0; k < 10; ++k) {
        int m = 10 - k;
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < m; ++j) {
                start[n] = v3((float)i - 0.5f * (float)(m - 1), 0.5f + (float)k, (float)j - 0.5f * (float)(m - 1));
                bodies[n] = convex_body(w, h, start[n], quat_identity(), 1.0f, 0.6f);
                ++n;
            }
    }
    pu_step(w, 600);
    float drift = 0.0f;
    for (int i = 0; i < n; ++i)
        drift = fmaxf(drift, v3_dist(pu_position(bodies[i]), start[i]));
    print_message("hull pyramid: max_drift %.4g m, top_y %.5f\n", drift, pu_position(bodies[n - 1]).y);
    assert_true(drift <= 0.01f);
    rb_destroy_world(w);
}

static void test_a_ball_and_a_capsule_rest_on_a_hull_at_their_radius(void **state)
{
    (void)state;
    // a static hull slab (top face at y = 0.2) under a ball of radius 0.3 and a capsule lying along x
    rb_world_id w = pu_make_world(false);
    rb_body_def sb = pu_body_def(RB_BODY_STATIC, v3(0, 0, 0), quat_identity(), 0.0f);
    rb_body_id slab;
    RB_CHECK(rb_create_body(w, &sb, &slab));
    rb_shape_def sd = pu_material(0.6f, 0.0f);
    rb_convex cv = {make_box_hull(w, v3(4.0f, 0.2f, 4.0f), v3(0, 0, 0)), 0.0f};
    rb_shape_id s;
    RB_CHECK(rb_create_convex_shape(slab, &sd, &cv, &s));
    rb_body_id ball = pu_sphere(w, v3(-1.0f, 0.8f, 0.0f), 0.3f, 1.0f, 0.6f, 0.0f);
    rb_quat along_x = {0.0f, 0.0f, 0.70710678f, 0.70710678f};
    rb_body_id cap = pu_capsule(w, v3(1.0f, 0.8f, 0.0f), along_x, 0.4f, 0.15f, 1.0f, 0.6f, 0.0f);
    pu_step(w, 180);
    float depth = pu_resting_depth(w);
    assert_float_equal(pu_position(ball).y, 0.5f, depth + 1e-3f);
    assert_float_equal(pu_position(cap).y, 0.35f, depth + 1e-3f);
    // the capsule lies flat: its axis stays horizontal
    assert_float_equal(quat_rotate(pu_rotation(cap), v3(0, 1, 0)).y, 0.0f, 0.01f);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_box_cloud_gives_a_hull_of_eight_vertices_twelve_edges_and_six_faces),
        cmocka_unit_test(test_a_convex_box_has_the_mass_and_inertia_of_the_box_shape),
        cmocka_unit_test(test_a_hull_off_its_origin_puts_the_centre_of_mass_at_its_centroid),
        cmocka_unit_test(test_a_regular_tetrahedron_has_its_analytic_inertia),
        cmocka_unit_test(test_many_shapes_share_one_hull_and_it_outlives_them_only_when_asked),
        cmocka_unit_test(test_destroying_a_hull_keeps_the_shapes_of_the_others_intact),
        cmocka_unit_test(test_bad_clouds_and_defs_are_refused_with_the_reason),
        cmocka_unit_test(test_a_rounded_hull_weighs_what_steiners_formula_says),
        cmocka_unit_test(test_a_cube_given_as_a_hull_rests_as_the_box_does),
        cmocka_unit_test(test_a_cube_given_as_a_hull_slides_down_a_slope_with_kinetic_friction),
        cmocka_unit_test(test_a_tetrahedron_dropped_askew_comes_to_rest_on_a_face),
        cmocka_unit_test(test_an_icosahedron_tumbles_down_a_slope_past_its_tipping_angle_and_rests_below_it),
        cmocka_unit_test(test_a_pyramid_of_hull_cubes_stands_as_the_box_pyramid_does),
        cmocka_unit_test(test_a_ball_and_a_capsule_rest_on_a_hull_at_their_radius),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
