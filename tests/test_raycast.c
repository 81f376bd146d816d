// rb_world_cast_ray: the first shape a segment enters, where (fraction, point) and with which outward
// normal; shapes seen at their current poses (rotations, local offsets, moved bodies); grazing and
// missing segments; the start-inside rule; the nearest of several shapes; mask filtering; invalid
// input. A fuzz compares every shape type with a brute-force march along the segment.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "physics_util.h"

#define ALL 0xffffffffu
#define TOL 1e-5f

static rb_world_id make_world(void)
{
    return pu_make_world_zero_g();
}

static rb_body_id add_static(rb_world_id w, rb_vec3 p, rb_quat q)
{
    rb_body_def bd = pu_body_def(RB_BODY_STATIC, p, q, 0.0f);
    rb_body_id b;
    RB_CHECK(rb_create_body(w, &bd, &b));
    return b;
}

static rb_shape_id add_sphere(rb_world_id w, rb_vec3 p, float r, uint32_t category)
{
    rb_body_id b = add_static(w, p, quat_identity());
    rb_shape_def sd = rb_default_shape_def();
    sd.category_bits = category;
    rb_sphere s = {r};
    rb_shape_id sh;
    RB_CHECK(rb_create_sphere_shape(b, &sd, &s, &sh));
    return sh;
}

static rb_shape_id add_box(rb_world_id w, rb_vec3 p, rb_quat q, rb_vec3 half)
{
    rb_body_id b = add_static(w, p, q);
    rb_shape_def sd = rb_default_shape_def();
    rb_box box = {half};
    rb_shape_id sh;
    RB_CHECK(rb_create_box_shape(b, &sd, &box, &sh));
    return sh;
}

static rb_shape_id add_capsule(rb_world_id w, rb_vec3 p, rb_quat q, float half_length, float r)
{
    rb_body_id b = add_static(w, p, q);
    rb_shape_def sd = rb_default_shape_def();
    rb_capsule c = {half_length, r};
    rb_shape_id sh;
    RB_CHECK(rb_create_capsule_shape(b, &sd, &c, &sh));
    return sh;
}

static rb_shape_id add_plane(rb_world_id w, rb_vec3 p, rb_quat q, rb_vec3 normal, float offset)
{
    rb_body_id b = add_static(w, p, q);
    rb_shape_def sd = rb_default_shape_def();
    rb_plane pl = {normal, offset};
    rb_shape_id sh;
    RB_CHECK(rb_create_plane_shape(b, &sd, &pl, &sh));
    return sh;
}

static rb_ray_hit cast(rb_world_id w, rb_vec3 origin, rb_vec3 translation, uint32_t mask)
{
    rb_ray_hit h;
    memset(&h, 0xab, sizeof h); // the call must write every field
    RB_CHECK(rb_world_cast_ray(w, origin, translation, mask, &h));
    return h;
}

static void assert_vec_near(rb_vec3 a, rb_vec3 b, float tol)
{
    if (fabsf(a.x - b.x) > tol || fabsf(a.y - b.y) > tol || fabsf(a.z - b.z) > tol)
        fail_msg("(%.7g, %.7g, %.7g) != (%.7g, %.7g, %.7g) within %g", a.x, a.y, a.z, b.x, b.y, b.z, tol);
}

// A hit on `shape` at `fraction` with `normal`; the point must be origin + fraction * translation.
static void assert_hit(rb_ray_hit h, rb_shape_id shape, rb_vec3 origin, rb_vec3 translation, float fraction,
                       rb_vec3 normal)
{
    assert_true(h.hit);
    assert_true(rb_shape_equal(h.shape, shape));
    rb_body_id body;
    RB_CHECK(rb_shape_get_body(shape, &body));
    assert_true(rb_body_equal(h.body, body));
    assert_float_equal(h.fraction, fraction, TOL);
    assert_vec_near(h.point, v3_add(origin, v3_scale(translation, fraction)), 4 * TOL);
    assert_vec_near(h.normal, normal, TOL);
}

static void assert_miss(rb_ray_hit h)
{
    assert_false(h.hit);
    // "the other fields are zero" (compared field by field: padding is not copied with the struct)
    assert_int_equal(h.body.index1, 0);
    assert_int_equal(h.shape.index1, 0);
    assert_true(h.point.x == 0.0f && h.point.y == 0.0f && h.point.z == 0.0f);
    assert_true(h.normal.x == 0.0f && h.normal.y == 0.0f && h.normal.z == 0.0f);
    assert_true(h.fraction == 0.0f);
}

// ---- each shape type from outside ------------------------------------------------------------

static void test_ray_hits_sphere_at_the_near_side_with_radial_normal(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_shape_id s = add_sphere(w, v3(2, 1, 0), 0.5f, 1);
    // along the centre line: enters at x = 2 − 0.5 = 1.5, fraction 1.5 / 4 = 0.375, normal −x
    rb_vec3 o = v3(0, 1, 0), d = v3(4, 0, 0);
    assert_hit(cast(w, o, d, ALL), s, o, d, 0.375f, v3(-1, 0, 0));
    // 0.3 above the centre line: (x − 2)² + 0.3² = 0.5² gives x = 2 − 0.4 = 1.6, fraction 0.4,
    // normal (−0.4, 0.3, 0) / 0.5 = (−0.8, 0.6, 0)
    o = v3(0, 1.3f, 0);
    assert_hit(cast(w, o, d, ALL), s, o, d, 0.4f, v3(-0.8f, 0.6f, 0));
    rb_destroy_world(w);
}

static void test_ray_hits_small_sphere_accurately_from_far_away(void **state)
{
    (void)state;
    // a 5 cm ball seen from 100 m with a 1 km segment: entry at z = 0.05, fraction 99.95 / 1000;
    // the textbook b² − ac would lose the answer to cancellation (b² ~ 1e4, r² = 0.0025)
    rb_world_id w = make_world();
    rb_shape_id s = add_sphere(w, v3(0, 0, 0), 0.05f, 1);
    rb_vec3 o = v3(0, 0.03f, 100), d = v3(0, 0, -1000);
    // entry at z = sqrt(0.05² − 0.03²) = 0.04: fraction (100 − 0.04) / 1000, normal (0, 0.6, 0.8)
    rb_ray_hit h = cast(w, o, d, ALL);
    assert_true(h.hit);
    assert_true(rb_shape_equal(h.shape, s));
    assert_float_equal(h.fraction, 0.09996f, 2e-7f);
    assert_vec_near(h.normal, v3(0, 0.6f, 0.8f), 2e-3f);
    rb_destroy_world(w);
}

static void test_ray_hits_capsule_side_and_caps(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // upright capsule at the origin: segment y in [−1, 1], radius 0.5
    rb_shape_id c = add_capsule(w, v3(0, 0, 0), quat_identity(), 1.0f, 0.5f);
    // side: enters at x = −0.5 from x = −3 over 6 m: fraction 2.5 / 6, normal −x
    rb_vec3 o = v3(-3, 0.5f, 0), d = v3(6, 0, 0);
    assert_hit(cast(w, o, d, ALL), c, o, d, 2.5f / 6.0f, v3(-1, 0, 0));
    // top cap from above: enters at y = 1 + 0.5 = 1.5 from y = 5 over 10 m: fraction 0.35, normal +y
    o = v3(0, 5, 0), d = v3(0, -10, 0);
    assert_hit(cast(w, o, d, ALL), c, o, d, 0.35f, v3(0, 1, 0));
    // through the top cap's shoulder at y = 1.3: x² + 0.3² = 0.5² gives x = −0.4: fraction 2.6 / 6,
    // normal (−0.4, 0.3, 0) / 0.5
    o = v3(-3, 1.3f, 0), d = v3(6, 0, 0);
    assert_hit(cast(w, o, d, ALL), c, o, d, 2.6f / 6.0f, v3(-0.8f, 0.6f, 0));
    // along the axis from below: bottom cap at y = −1.5, fraction (3 − 1.5) / 3 = 0.5, normal −y
    o = v3(0, -3, 0), d = v3(0, 3, 0);
    assert_hit(cast(w, o, d, ALL), c, o, d, 0.5f, v3(0, -1, 0));
    rb_destroy_world(w);
}

static void test_ray_hits_box_faces_with_face_normals(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_shape_id b = add_box(w, v3(0, 0, 0), quat_identity(), v3(1, 0.5f, 0.25f));
    rb_vec3 o = v3(0.3f, 3, 0.1f), d = v3(0, -6, 0); // top face y = 0.5: fraction 2.5 / 6
    assert_hit(cast(w, o, d, ALL), b, o, d, 2.5f / 6.0f, v3(0, 1, 0));
    o = v3(-4, 0.2f, 0), d = v3(8, 0, 0); // face x = −1: fraction 3 / 8
    assert_hit(cast(w, o, d, ALL), b, o, d, 0.375f, v3(-1, 0, 0));
    o = v3(0, 0, -2), d = v3(0, 0, 4); // face z = −0.25: fraction 1.75 / 4
    assert_hit(cast(w, o, d, ALL), b, o, d, 0.4375f, v3(0, 0, -1));
    rb_destroy_world(w);
}

static void test_ray_hits_plane_along_its_normal(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_shape_id g = add_plane(w, v3(0, 0, 0), quat_identity(), v3(0, 1, 0), 0.0f); // y <= 0
    rb_vec3 o = v3(1, 2, 3), d = v3(0, -4, 0);
    assert_hit(cast(w, o, d, ALL), g, o, d, 0.5f, v3(0, 1, 0));
    o = v3(0, 3, 0), d = v3(4, -6, 0); // oblique: y reaches 0 halfway, at (2, 0, 0)
    assert_hit(cast(w, o, d, ALL), g, o, d, 0.5f, v3(0, 1, 0));
    rb_destroy_world(w);

    // tilted: n = (1, 1, 0)/sqrt(2), offset 1, i.e. x + y <= sqrt(2). From (3, 3, 0) over (−6, −6, 0): the
    // distance to the plane is 6/sqrt(2) − 1 and it closes at 12/sqrt(2) per unit fraction:
    // fraction (6/sqrt(2) − 1) / (12/sqrt(2)) = 0.5 − sqrt(2)/12 = 0.382149
    w = make_world();
    g = add_plane(w, v3(0, 0, 0), quat_identity(), v3(0.70710678f, 0.70710678f, 0), 1.0f);
    o = v3(3, 3, 0), d = v3(-6, -6, 0);
    assert_hit(cast(w, o, d, ALL), g, o, d, 0.382149f, v3(0.707107f, 0.707107f, 0));
    rb_destroy_world(w);
}

// ---- the shapes' current world poses -----------------------------------------------------------

static void test_ray_sees_rotated_capsule_along_its_local_y_axis(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // 90° about z takes the local y axis to world −x: the capsule lies along x, ends at x = ±1.5
    rb_quat q = rb_quat_from_axis_angle(v3(0, 0, 1), (float)(PU_PI / 2));
    rb_shape_id c = add_capsule(w, v3(0, 0, 0), q, 1.0f, 0.5f);
    rb_vec3 o = v3(5, 0, 0), d = v3(-10, 0, 0); // end cap at x = 1.5: fraction 0.35, normal +x
    assert_hit(cast(w, o, d, ALL), c, o, d, 0.35f, v3(1, 0, 0));
    o = v3(0.9f, 3, 0), d = v3(0, -6, 0); // side at y = 0.5 (x = 0.9 is within the segment)
    assert_hit(cast(w, o, d, ALL), c, o, d, 2.5f / 6.0f, v3(0, 1, 0));
    rb_destroy_world(w);
}

static void test_ray_sees_rotated_box_faces(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // unit cube (half 1) turned 45° about z: local +x face normal n1 = (c, c, 0), local +y face
    // n2 = (−c, c, 0), c = 1/sqrt(2); both at distance 1. From (0.3, 5, 0) straight down the segment
    // crosses n2's plane first (y = sqrt(2) + 0.3) but is still outside n1's slab there; it enters
    // the box at n1's plane: c (0.3 + y) = 1, y = sqrt(2) − 0.3 = 1.114214, fraction 3.885786 / 10
    rb_quat q = rb_quat_from_axis_angle(v3(0, 0, 1), (float)(PU_PI / 4));
    rb_shape_id b = add_box(w, v3(0, 0, 0), q, v3(1, 1, 1));
    rb_vec3 o = v3(0.3f, 5, 0), d = v3(0, -10, 0);
    assert_hit(cast(w, o, d, ALL), b, o, d, 0.3885786f, v3(0.707107f, 0.707107f, 0));
    rb_destroy_world(w);

    // half (1, 0.5, 0.5) turned 90° about y (local x -> world −z, local z -> world x): world extents
    // 0.5 in x and 1 in z
    w = make_world();
    q = rb_quat_from_axis_angle(v3(0, 1, 0), (float)(PU_PI / 2));
    b = add_box(w, v3(0, 0, 0), q, v3(1, 0.5f, 0.5f));
    o = v3(-3, 0, 0), d = v3(6, 0, 0); // face x = −0.5: fraction 2.5 / 6
    assert_hit(cast(w, o, d, ALL), b, o, d, 2.5f / 6.0f, v3(-1, 0, 0));
    o = v3(0, 0, 3), d = v3(0, 0, -6); // face z = 1: fraction 2 / 6
    assert_hit(cast(w, o, d, ALL), b, o, d, 2.0f / 6.0f, v3(0, 0, 1));
    rb_destroy_world(w);
}

static void test_ray_sees_plane_turned_and_moved_with_its_body(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // body at (2, 0, 0) turned 90° about z: the local normal +y becomes −x, so the solid is x >= 2
    rb_quat q = rb_quat_from_axis_angle(v3(0, 0, 1), (float)(PU_PI / 2));
    rb_shape_id g = add_plane(w, v3(2, 0, 0), q, v3(0, 1, 0), 0.0f);
    rb_vec3 o = v3(0, 0, 0), d = v3(4, 0, 0);
    assert_hit(cast(w, o, d, ALL), g, o, d, 0.5f, v3(-1, 0, 0));
    rb_destroy_world(w);
}

static void test_ray_sees_shape_at_its_local_offset_in_the_body(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // body at (0, 1, 0) turned 90° about y; sphere (r 0.25) at local (1, 0, 0) -> world (0, 1, −1)
    rb_body_id b = add_static(w, v3(0, 1, 0), rb_quat_from_axis_angle(v3(0, 1, 0), (float)(PU_PI / 2)));
    rb_shape_def sd = rb_default_shape_def();
    sd.local_position = v3(1, 0, 0);
    rb_sphere s = {0.25f};
    rb_shape_id sh;
    RB_CHECK(rb_create_sphere_shape(b, &sd, &s, &sh));
    rb_vec3 o = v3(0, 4, -1), d = v3(0, -4, 0); // top at y = 1.25: fraction 2.75 / 4
    assert_hit(cast(w, o, d, ALL), sh, o, d, 0.6875f, v3(0, 1, 0));
    rb_destroy_world(w);
}

static void test_ray_sees_bodies_where_the_last_step_and_later_edits_put_them(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // a ball (r 0.5) moving at 6 m/s along x for 10 steps of 1/60 s: from x = 0 to x = 1
    rb_body_id ball = pu_sphere(w, v3(0, 0, 0), 0.5f, 1.0f, 0.6f, 0.0f);
    RB_CHECK(rb_body_set_linear_velocity(ball, v3(6, 0, 0)));
    pu_step(w, 10);
    rb_shape_id sh;
    RB_CHECK(rb_body_get_shapes(ball, &sh, 1, NULL));
    rb_vec3 o = v3(pu_position(ball).x, 5, 0), d = v3(0, -10, 0);
    assert_float_equal(o.x, 1.0f, 1e-4f);
    assert_hit(cast(w, o, d, ALL), sh, o, d, 0.45f, v3(0, 1, 0));
    // moved by the application: seen at once, without a step
    RB_CHECK(rb_body_set_transform(ball, v3(-3, 0, 0), quat_identity()));
    assert_miss(cast(w, o, d, ALL));
    o = v3(-3, 5, 0);
    assert_hit(cast(w, o, d, ALL), sh, o, d, 0.45f, v3(0, 1, 0));
    rb_destroy_world(w);
}

// ---- grazing and missing ---------------------------------------------------------------------

static void test_ray_grazing_a_sphere_touches_it_and_just_beside_misses(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_shape_id s = add_sphere(w, v3(0, 0, 0), 0.5f, 1);
    rb_vec3 o = v3(-2, 0.5f, 0), d = v3(4, 0, 0); // tangent at (0, 0.5, 0): fraction 0.5, normal +y
    assert_hit(cast(w, o, d, ALL), s, o, d, 0.5f, v3(0, 1, 0));
    assert_miss(cast(w, v3(-2, 0.5001f, 0), d, ALL));
    // stopping short of the surface (x = −0.5) misses; reaching it exactly hits at fraction 1
    assert_miss(cast(w, v3(-2, 0, 0), v3(1.4f, 0, 0), ALL));
    o = v3(-2, 0, 0), d = v3(1.5f, 0, 0);
    assert_hit(cast(w, o, d, ALL), s, o, d, 1.0f, v3(-1, 0, 0));
    // pointing away
    assert_miss(cast(w, v3(-2, 0, 0), v3(-4, 0, 0), ALL));
    rb_destroy_world(w);
}

static void test_ray_passing_beside_box_and_capsule_misses(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_shape_id b = add_box(w, v3(0, 0, 0), quat_identity(), v3(1, 1, 1));
    assert_miss(cast(w, v3(-3, 1.001f, 0), v3(6, 0, 0), ALL));
    rb_vec3 o = v3(-3, 0.999f, 0), d = v3(6, 0, 0);
    assert_hit(cast(w, o, d, ALL), b, o, d, 2.0f / 6.0f, v3(-1, 0, 0));
    // diagonal past the corner (1, 1, 1): the line x + y = 2.01 in z = 0 stays outside
    assert_miss(cast(w, v3(-1, 3.01f, 0), v3(4, -4, 0), ALL));
    rb_destroy_world(w);

    w = make_world();
    add_capsule(w, v3(0, 0, 0), quat_identity(), 1.0f, 0.5f);
    assert_miss(cast(w, v3(-3, 0, 0.501f), v3(6, 0, 0), ALL)); // beside the side
    assert_miss(cast(w, v3(0.501f, 5, 0), v3(0, -10, 0), ALL)); // parallel to the axis, beside it
    assert_miss(cast(w, v3(-3, 1.0f + 0.5f * 0.7072f, 0.5f * 0.7072f), v3(6, 0, 0), ALL)); // past the cap
    rb_destroy_world(w);

    w = make_world();
    add_plane(w, v3(0, 0, 0), quat_identity(), v3(0, 1, 0), 0.0f);
    assert_miss(cast(w, v3(0, 1, 0), v3(5, 0, 0), ALL));   // parallel above the ground
    assert_miss(cast(w, v3(0, 1, 0), v3(0, 3, 0), ALL));   // going up
    assert_miss(cast(w, v3(0, 1, 0), v3(0, -0.9f, 0), ALL)); // stops above it
    rb_destroy_world(w);
}

// ---- start inside ----------------------------------------------------------------------------

static void test_ray_starting_inside_hits_at_zero_against_the_direction(void **state)
{
    (void)state;
    // inside every shape type: fraction 0, point = origin, normal −translation/|translation|
    rb_world_id w = make_world();
    rb_vec3 d = v3(0, 0, 5);
    rb_shape_id s = add_sphere(w, v3(0, 0, 0), 1.0f, 1);
    assert_hit(cast(w, v3(0.2f, 0.1f, 0), d, ALL), s, v3(0.2f, 0.1f, 0), d, 0.0f, v3(0, 0, -1));
    rb_destroy_world(w);

    w = make_world();
    rb_shape_id c = add_capsule(w, v3(0, 0, 0), quat_identity(), 1.0f, 0.5f);
    rb_vec3 o = v3(0.1f, 1.2f, 0), dd = v3(3, 4, 0); // inside the top cap
    assert_hit(cast(w, o, dd, ALL), c, o, dd, 0.0f, v3(-0.6f, -0.8f, 0));
    rb_destroy_world(w);

    w = make_world();
    rb_quat q = rb_quat_from_axis_angle(v3(1, 0, 0), 0.3f);
    rb_shape_id b = add_box(w, v3(5, 0, 0), q, v3(1, 2, 3));
    o = v3(5.5f, 0.5f, -1);
    assert_hit(cast(w, o, v3(-2, 0, 0), ALL), b, o, v3(-2, 0, 0), 0.0f, v3(1, 0, 0));
    rb_destroy_world(w);

    w = make_world();
    rb_shape_id g = add_plane(w, v3(0, 0, 0), quat_identity(), v3(0, 1, 0), 0.0f);
    o = v3(0, -1, 0);
    assert_hit(cast(w, o, v3(0, 4, 0), ALL), g, o, v3(0, 4, 0), 0.0f, v3(0, -1, 0));
    rb_destroy_world(w);
}

// ---- several shapes ---------------------------------------------------------------------------

static void test_ray_reports_the_nearest_of_several_shapes(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    // created far to near so that slot order cannot be what picks the answer
    add_plane(w, v3(0, 0, 0), quat_identity(), v3(-1, 0, 0), -20.0f); // solid x >= 20
    add_box(w, v3(9, 0, 0), quat_identity(), v3(0.5f, 0.5f, 0.5f));
    add_capsule(w, v3(6, 0, 0), quat_identity(), 1.0f, 0.5f);
    rb_shape_id near = add_sphere(w, v3(3, 0, 0), 0.5f, 1);
    rb_vec3 o = v3(0, 0, 0), d = v3(30, 0, 0);
    assert_hit(cast(w, o, d, ALL), near, o, d, 2.5f / 30.0f, v3(-1, 0, 0));
    // from beyond the sphere the capsule is next: x = 5.5
    o = v3(4, 0, 0);
    rb_ray_hit h = cast(w, o, d, ALL);
    assert_true(h.hit);
    assert_float_equal(h.fraction, 1.5f / 30.0f, TOL);
    rb_shape_type type;
    RB_CHECK(rb_shape_get_type(h.shape, &type));
    assert_int_equal(type, RB_SHAPE_CAPSULE);
    rb_destroy_world(w);
}

static void test_ray_ignores_shapes_whose_category_is_not_in_the_mask(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_shape_id a = add_sphere(w, v3(2, 0, 0), 0.5f, 0x1);
    rb_shape_id b = add_sphere(w, v3(4, 0, 0), 0.5f, 0x2);
    rb_shape_id c = add_sphere(w, v3(6, 0, 0), 0.5f, 0x4 | 0x8);
    rb_vec3 o = v3(0, 0, 0), d = v3(10, 0, 0);
    assert_hit(cast(w, o, d, ALL), a, o, d, 0.15f, v3(-1, 0, 0));
    assert_hit(cast(w, o, d, 0x6), b, o, d, 0.35f, v3(-1, 0, 0));
    assert_hit(cast(w, o, d, 0x8), c, o, d, 0.55f, v3(-1, 0, 0));
    assert_miss(cast(w, o, d, 0x10));
    assert_miss(cast(w, o, d, 0));
    rb_destroy_world(w);
}

static void test_ray_skips_destroyed_shapes(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    rb_shape_id a = add_sphere(w, v3(2, 0, 0), 0.5f, 1);
    rb_shape_id b = add_sphere(w, v3(4, 0, 0), 0.5f, 1);
    RB_CHECK(rb_destroy_shape(a));
    rb_vec3 o = v3(0, 0, 0), d = v3(10, 0, 0);
    assert_hit(cast(w, o, d, ALL), b, o, d, 0.35f, v3(-1, 0, 0));
    rb_body_id body;
    RB_CHECK(rb_shape_get_body(b, &body));
    RB_CHECK(rb_destroy_body(body));
    assert_miss(cast(w, o, d, ALL));
    rb_destroy_world(w);
}

// ---- invalid input ----------------------------------------------------------------------------

static void test_ray_rejects_invalid_input_with_a_sentence(void **state)
{
    (void)state;
    rb_world_id w = make_world();
    add_sphere(w, v3(0, 0, 0), 1.0f, 1);
    rb_ray_hit h;
    assert_int_equal(rb_world_cast_ray(w, v3(NAN, 0, 0), v3(1, 0, 0), ALL, &h), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "origin must be finite"));
    assert_int_equal(rb_world_cast_ray(w, v3(0, 0, 0), v3(0, INFINITY, 0), ALL, &h), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "translation must be finite"));
    assert_int_equal(rb_world_cast_ray(w, v3(5, 0, 0), v3(0, 0, 0), ALL, &h), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "translation must be non-zero"));
    // finite components whose length overflows a float
    assert_int_equal(rb_world_cast_ray(w, v3(5, 0, 0), v3(3e38f, 3e38f, 0), ALL, &h), RB_ERR_INVALID_ARGUMENT);
    assert_int_equal(rb_world_cast_ray(w, v3(5, 0, 0), v3(-1, 0, 0), ALL, NULL), RB_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(rb_last_error(w), "out must not be NULL"));
    rb_world_id stale = w;
    rb_destroy_world(w);
    assert_int_equal(rb_world_cast_ray(stale, v3(5, 0, 0), v3(-1, 0, 0), ALL, &h), RB_ERR_STALE_ID);
    assert_int_equal(rb_world_cast_ray(rb_null_world_id, v3(5, 0, 0), v3(-1, 0, 0), ALL, &h), RB_ERR_STALE_ID);
}

// ---- fuzz against a brute-force march ---------------------------------------------------------

// Independent reference: signed distance (double precision) from a point to each shape, > 0 outside.
typedef struct ref_shape {
    rb_shape_type type;
    rb_vec3 p;    // world position (planes: unused)
    rb_quat q;    // world rotation
    double a, b, c; // sphere r; capsule half_length, r; box half extents; plane n (world) ...
    rb_vec3 n;    // plane normal (world, unit)
    double offset;
} ref_shape;

static void to_local(const ref_shape *s, const double x[3], double l[3])
{
    // conj(q) (x − p), with the rotation matrix transposed
    pu_mat3 r = quat_to_mat3(s->q);
    double d[3] = {x[0] - s->p.x, x[1] - s->p.y, x[2] - s->p.z};
    for (int i = 0; i < 3; ++i)
        l[i] = r.m[0][i] * d[0] + r.m[1][i] * d[1] + r.m[2][i] * d[2];
}

static double ref_distance(const ref_shape *s, const double x[3])
{
    double l[3];
    if (s->type == RB_SHAPE_PLANE)
        return s->n.x * x[0] + s->n.y * x[1] + s->n.z * x[2] - s->offset;
    to_local(s, x, l);
    if (s->type == RB_SHAPE_SPHERE)
        return sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]) - s->a;
    if (s->type == RB_SHAPE_CAPSULE) {
        double y = fmax(-s->a, fmin(s->a, l[1]));
        return sqrt(l[0] * l[0] + (l[1] - y) * (l[1] - y) + l[2] * l[2]) - s->b;
    }
    double h[3] = {s->a, s->b, s->c}, q[3], out = 0.0, in = -1e300;
    for (int i = 0; i < 3; ++i) {
        q[i] = fabs(l[i]) - h[i];
        out += q[i] > 0 ? q[i] * q[i] : 0.0;
        in = fmax(in, q[i]);
    }
    return out > 0.0 ? sqrt(out) : in;
}

static uint64_t fuzz_state = 12345;
static double uniform(void)
{
    fuzz_state = fuzz_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(fuzz_state >> 11) * (1.0 / 9007199254740992.0);
}
static double range(double lo, double hi) { return lo + (hi - lo) * uniform(); }

static rb_quat random_rotation(void)
{
    rb_vec3 axis = v3((float)range(-1, 1), (float)range(-1, 1), (float)range(-1, 1));
    return rb_quat_from_axis_angle(axis, (float)range(0, 2 * PU_PI));
}

static void test_ray_agrees_with_a_brute_force_march_on_random_shapes(void **state)
{
    (void)state;
    // For 4000 random (shape, segment) pairs: march 4000 samples along the segment with the
    // reference distance. Where the march first finds a point inside (distance < −1e-4) at sample k,
    // the ray must hit between samples k−1 and k; where the ray hits, the point must be on the
    // surface (|distance| < 1e-4 m) and the normal must be the reference
    // distance's gradient there (away from box edges, where it is not defined); where the march finds
    // nothing, a hit may only be a graze thinner than a sample. Origins inside: fraction 0.
    const int cases = 4000, samples = 4000;
    int hits = 0, inside = 0, normal_checks = 0;
    rb_world_id w = make_world();
    for (int k = 0; k < cases; ++k) {
        ref_shape s;
        memset(&s, 0, sizeof s);
        s.type = (rb_shape_type)(k % 4);
        s.p = v3((float)range(-2, 2), (float)range(-2, 2), (float)range(-2, 2));
        s.q = random_rotation();
        rb_body_id body = add_static(w, s.p, s.q);
        rb_shape_def sd = rb_default_shape_def();
        rb_shape_id sh;
        if (s.type == RB_SHAPE_SPHERE) {
            rb_sphere g = {(float)range(0.1, 2)};
            s.a = g.radius;
            RB_CHECK(rb_create_sphere_shape(body, &sd, &g, &sh));
        } else if (s.type == RB_SHAPE_CAPSULE) {
            rb_capsule g = {(float)range(0, 2), (float)range(0.1, 1)};
            s.a = g.half_length, s.b = g.radius;
            RB_CHECK(rb_create_capsule_shape(body, &sd, &g, &sh));
        } else if (s.type == RB_SHAPE_BOX) {
            rb_box g = {v3((float)range(0.1, 2), (float)range(0.1, 2), (float)range(0.1, 2))};
            s.a = g.half_extents.x, s.b = g.half_extents.y, s.c = g.half_extents.z;
            RB_CHECK(rb_create_box_shape(body, &sd, &g, &sh));
        } else {
            rb_plane g = {v3((float)range(-1, 1), (float)range(-1, 1), (float)range(-1, 1)), (float)range(-1, 1)};
            RB_CHECK(rb_create_plane_shape(body, &sd, &g, &sh));
            RB_CHECK(rb_shape_get_plane(sh, &g)); // normalised by the library
            // world plane: n_w = R n, offset_w = n_w · p + offset
            s.n = quat_rotate(s.q, g.normal);
            s.offset = v3_dot(s.n, s.p) + g.offset;
        }
        rb_vec3 o = v3((float)range(-6, 6), (float)range(-6, 6), (float)range(-6, 6));
        // aimed near the shape (most segments pass close to it; some stop short, some go past)
        rb_vec3 target = v3_add(s.p, v3((float)range(-1.5, 1.5), (float)range(-1.5, 1.5), (float)range(-1.5, 1.5)));
        rb_vec3 d = v3_scale(v3_sub(target, o), (float)range(0.5, 2.0));
        if (v3_len(d) < 1e-3f)
            d = v3(1, 0, 0);
        rb_ray_hit h = cast(w, o, d, ALL);

        double x0[3] = {o.x, o.y, o.z};
        double dist0 = ref_distance(&s, x0);
        if (fabs(dist0) < 1e-4) {
            RB_CHECK(rb_destroy_body(body));
            continue; // on the surface to within rounding: either answer is right
        }
        if (dist0 < 0) {
            ++inside;
            assert_true(h.hit);
            assert_float_equal(h.fraction, 0.0f, 0.0f);
            float len = v3_len(d);
            assert_vec_near(h.normal, v3(-d.x / len, -d.y / len, -d.z / len), 1e-5f);
            RB_CHECK(rb_destroy_body(body));
            continue;
        }
        // the entry lies between the last sample clearly outside (distance > 1e-4) and the first
        // sample clearly inside (distance < −1e-4)
        int first_inside = -1, last_outside = 0;
        for (int i = 1; i <= samples && first_inside < 0; ++i) {
            double t = (double)i / samples;
            double x[3] = {o.x + t * d.x, o.y + t * d.y, o.z + t * d.z};
            double dist = ref_distance(&s, x);
            if (dist < -1e-4)
                first_inside = i;
            else if (dist > 1e-4)
                last_outside = i;
        }
        if (first_inside >= 0) {
            if (!h.hit)
                fail_msg("case %d (type %d): the march is inside at t = %g but the ray missed", k, s.type,
                         (double)first_inside / samples);
            double lo = (double)last_outside / samples, hi = (double)first_inside / samples;
            if (h.fraction < lo - 1e-5 || h.fraction > hi + 1e-5)
                fail_msg("case %d (type %d): hit at %.7f, the march enters in [%.7f, %.7f]", k, s.type,
                         (double)h.fraction, lo, hi);
        }
        if (h.hit) {
            ++hits;
            assert_true(h.fraction >= 0.0f && h.fraction <= 1.0f);
            double x[3] = {h.point.x, h.point.y, h.point.z};
            double dist = ref_distance(&s, x);
            if (fabs(dist) > 1e-4)
                fail_msg("case %d (type %d): hit point is %g m from the surface", k, s.type, dist);
            // reference normal: central differences of the distance
            double g[3], e = 1e-4;
            for (int i = 0; i < 3; ++i) {
                double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
                xp[i] += e, xm[i] -= e;
                g[i] = (ref_distance(&s, xp) - ref_distance(&s, xm)) / (2 * e);
            }
            double gl = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
            bool near_edge = false;
            if (s.type == RB_SHAPE_BOX) {
                double l[3], hb[3] = {s.a, s.b, s.c};
                to_local(&s, x, l);
                int on_faces = 0;
                for (int i = 0; i < 3; ++i)
                    on_faces += fabs(fabs(l[i]) - hb[i]) < 1e-3;
                near_edge = on_faces > 1;
            }
            if (!near_edge && fabs(gl - 1.0) < 1e-2) {
                ++normal_checks;
                double dot = (h.normal.x * g[0] + h.normal.y * g[1] + h.normal.z * g[2]) / gl;
                if (dot < 0.9999)
                    fail_msg("case %d (type %d): normal (%g, %g, %g) vs gradient (%g, %g, %g)", k, s.type,
                             (double)h.normal.x, (double)h.normal.y, (double)h.normal.z, g[0] / gl, g[1] / gl,
                             g[2] / gl);
            }
        }
        RB_CHECK(rb_destroy_body(body));
    }
    print_message("fuzz: %d cases, %d hits from outside (%d normals checked), %d starting inside\n", cases, hits,
                  normal_checks, inside);
    assert_true(hits > cases / 5);
    assert_true(inside > cases / 20);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ray_hits_sphere_at_the_near_side_with_radial_normal),
        cmocka_unit_test(test_ray_hits_small_sphere_accurately_from_far_away),
        cmocka_unit_test(test_ray_hits_capsule_side_and_caps),
        cmocka_unit_test(test_ray_hits_box_faces_with_face_normals),
        cmocka_unit_test(test_ray_hits_plane_along_its_normal),
        cmocka_unit_test(test_ray_sees_rotated_capsule_along_its_local_y_axis),
        cmocka_unit_test(test_ray_sees_rotated_box_faces),
        cmocka_unit_test(test_ray_sees_plane_turned_and_moved_with_its_body),
        cmocka_unit_test(test_ray_sees_shape_at_its_local_offset_in_the_body),
        cmocka_unit_test(test_ray_sees_bodies_where_the_last_step_and_later_edits_put_them),
        cmocka_unit_test(test_ray_grazing_a_sphere_touches_it_and_just_beside_misses),
        cmocka_unit_test(test_ray_passing_beside_box_and_capsule_misses),
        cmocka_unit_test(test_ray_starting_inside_hits_at_zero_against_the_direction),
        cmocka_unit_test(test_ray_reports_the_nearest_of_several_shapes),
        cmocka_unit_test(test_ray_ignores_shapes_whose_category_is_not_in_the_mask),
        cmocka_unit_test(test_ray_skips_destroyed_shapes),
        cmocka_unit_test(test_ray_rejects_invalid_input_with_a_sentence),
        cmocka_unit_test(test_ray_agrees_with_a_brute_force_march_on_random_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
