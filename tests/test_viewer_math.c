// rubble-view's window-free parts: the orbit camera (matrices, pixel rays, projection), picking
// through rb_world_cast_ray, the drag spring, the colour families, the joints' drawing (the hinge's
// arc, the cone-twist's cone, the spring's zig-zag, the lines and points of every joint), and the
// meshes of convex hulls (flat faces, rounded ones, one mesh per hull however many shapes share it).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "camera.h"
#include "hull_mesh.h"
#include "joint_draw.h"
#include "physics_util.h"
#include "picking.h"
#include "shape_cache.h"

static camera test_camera(void)
{
    // looking at (1, 2, 3) from 10 m, turned 30° and looking 20° down, 800 x 600 pixels
    camera c = camera_framing(vm_vec3(0, 0, 0), vm_vec3(1, 1, 1), 800, 600);
    c.target = vm_vec3(1, 2, 3);
    c.distance = 10.0f;
    c.yaw = 30.0f * VM_PI / 180.0f;
    c.pitch = 20.0f * VM_PI / 180.0f;
    return c;
}

static void assert_vec_near(rb_vec3 a, rb_vec3 b, float tol)
{
    if (fabsf(a.x - b.x) > tol || fabsf(a.y - b.y) > tol || fabsf(a.z - b.z) > tol)
        fail_msg("(%.6g, %.6g, %.6g) != (%.6g, %.6g, %.6g) within %g", a.x, a.y, a.z, b.x, b.y, b.z, tol);
}

// Distance from point p to the line through o with unit direction d.
static float distance_to_ray(rb_vec3 o, rb_vec3 d, rb_vec3 p)
{
    rb_vec3 m = vm_sub(p, o);
    return vm_len(vm_sub(m, vm_scale(d, vm_dot(m, d))));
}

static void test_camera_eye_sits_at_distance_above_target_looking_at_it(void **state)
{
    (void)state;
    camera c = test_camera();
    rb_vec3 eye = camera_eye(&c), f, r, u;
    camera_basis(&c, &f, &r, &u);
    // eye = target − d f; looking down by the pitch: f.y = −sin 20°; basis orthonormal, right horizontal
    assert_float_equal(vm_len(vm_sub(eye, c.target)), 10.0f, 1e-5f);
    assert_float_equal(f.y, -sinf(c.pitch), 1e-6f);
    assert_true(eye.y > c.target.y);
    assert_float_equal(vm_dot(f, r), 0.0f, 1e-6f);
    assert_float_equal(vm_dot(f, u), 0.0f, 1e-6f);
    assert_float_equal(vm_dot(r, u), 0.0f, 1e-6f);
    assert_float_equal(r.y, 0.0f, 1e-6f);
    assert_true(u.y > 0.0f);
    // the view matrix takes the eye to the origin and the target to (0, 0, −d)
    vm_mat4 v = camera_view(&c);
    float h[4];
    vm_mat4_transform(v, eye, h);
    assert_vec_near(vm_vec3(h[0], h[1], h[2]), vm_vec3(0, 0, 0), 1e-5f);
    vm_mat4_transform(v, c.target, h);
    assert_vec_near(vm_vec3(h[0], h[1], h[2]), vm_vec3(0, 0, -10.0f), 1e-5f);
}

static void test_centre_pixel_ray_is_the_view_direction(void **state)
{
    (void)state;
    camera c = test_camera();
    rb_vec3 o, d, f, r, u;
    camera_pixel_ray(&c, 400.0f, 300.0f, &o, &d);
    camera_basis(&c, &f, &r, &u);
    assert_vec_near(o, camera_eye(&c), 1e-5f);
    assert_vec_near(d, f, 1e-6f);
    // the middle of the top edge is fov/2 above the view direction, the left edge's middle
    // atan(tan(fov/2) · aspect) to the left
    camera_pixel_ray(&c, 400.0f, 0.0f, &o, &d);
    assert_float_equal(acosf(vm_dot(d, f)), 0.5f * c.fov_y, 1e-4f);
    assert_true(vm_dot(d, u) > 0.0f);
    camera_pixel_ray(&c, 0.0f, 300.0f, &o, &d);
    assert_float_equal(acosf(vm_dot(d, f)), atanf(tanf(0.5f * c.fov_y) * 800.0f / 600.0f), 1e-4f);
    assert_true(vm_dot(d, r) < 0.0f);
}

static void test_pixel_ray_passes_through_the_point_projected_to_that_pixel(void **state)
{
    (void)state;
    // camera_project goes through the GL matrices, camera_pixel_ray through the camera basis: the two
    // must agree, or picking would grab what is not under the mouse
    camera c = test_camera();
    uint64_t seed = 99;
    int checked = 0;
    for (int i = 0; i < 500; ++i) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        float a = (float)(seed >> 40) / 16777216.0f, b = (float)((seed >> 16) & 0xffffff) / 16777216.0f,
              e = (float)(seed & 0xffff) / 65536.0f;
        rb_vec3 p = vm_add(c.target, vm_vec3(10.0f * a - 5.0f, 8.0f * b - 4.0f, 10.0f * e - 5.0f));
        float px, py;
        if (!camera_project(&c, p, &px, &py) || px < 0 || px > 800 || py < 0 || py > 600)
            continue;
        rb_vec3 o, d;
        camera_pixel_ray(&c, px, py, &o, &d);
        float dist = vm_len(vm_sub(p, o));
        assert_true(distance_to_ray(o, d, p) < 2e-6f * dist + 1e-5f);
        ++checked;
    }
    assert_true(checked > 200);
}

static void test_orbit_pan_and_zoom_move_the_camera_as_the_mouse_says(void **state)
{
    (void)state;
    camera c = test_camera();
    rb_vec3 target = c.target;
    // orbiting keeps the target and the distance
    camera_orbit(&c, 120.0f, -40.0f);
    assert_vec_near(c.target, target, 0.0f);
    assert_float_equal(vm_len(vm_sub(camera_eye(&c), target)), 10.0f, 1e-4f);
    // the pitch stops short of straight down
    camera_orbit(&c, 0.0f, 1e5f);
    assert_true(c.pitch < 0.5f * VM_PI);
    // panning by the full height of the frame moves the target by the frame's height at the target's
    // depth, 2 d tan(fov/2), along the camera's up axis (dragging down moves the scene down)
    c = test_camera();
    rb_vec3 f, r, u;
    camera_basis(&c, &f, &r, &u);
    camera_pan(&c, 0.0f, 600.0f);
    float h = 2.0f * 10.0f * tanf(0.5f * c.fov_y);
    assert_vec_near(vm_sub(c.target, target), vm_scale(u, h), 1e-4f);
    // a point under the mouse before a pan is under it after: the scene follows the mouse
    c = test_camera();
    float px, py, qx, qy;
    assert_true(camera_project(&c, target, &px, &py));
    camera_pan(&c, 37.0f, -21.0f);
    assert_true(camera_project(&c, target, &qx, &qy));
    assert_float_equal(qx - px, 37.0f, 1e-2f);
    assert_float_equal(qy - py, -21.0f, 1e-2f);
    // zooming in comes closer, never through the target
    camera_zoom(&c, 2.0f);
    assert_float_equal(c.distance, 10.0f * 0.85f * 0.85f, 1e-4f);
    camera_zoom(&c, 1000.0f);
    assert_true(c.distance > 0.0f);
}

static void test_framing_shows_the_whole_bounding_box(void **state)
{
    (void)state;
    // every corner of the box projects inside the frame
    rb_vec3 lo = vm_vec3(-5, 0, -5), hi = vm_vec3(5, 10, 5);
    camera c = camera_framing(lo, hi, 1280, 720);
    for (int k = 0; k < 8; ++k) {
        rb_vec3 p = vm_vec3(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z);
        float px, py;
        assert_true(camera_project(&c, p, &px, &py));
        assert_true(px >= 0.0f && px <= 1280.0f && py >= 0.0f && py <= 720.0f);
    }
}

// ---- picking --------------------------------------------------------------------------------------

static void test_click_on_a_ball_grabs_it_at_its_surface(void **state)
{
    (void)state;
    // a ball (r 0.5) at (1, 2, 3), the camera's target: the centre pixel's ray hits it at the point
    // nearest the eye, r from the centre along −forward
    rb_world_id w = pu_make_world_zero_g();
    pu_add_ground(w, 0.6f, 0.0f);
    rb_body_id ball = pu_sphere(w, v3(1, 2, 3), 0.5f, 1.0f, 0.6f, 0.0f);
    camera c = test_camera();
    pick_state p;
    assert_true(picking_begin(&p, w, &c, 400.0f, 300.0f));
    assert_true(rb_body_equal(p.body, ball));
    rb_vec3 f, r, u;
    camera_basis(&c, &f, &r, &u);
    assert_vec_near(p.local_anchor, vm_scale(f, -0.5f), 1e-4f);
    assert_vec_near(p.target, vm_vec3(1 - 0.5f * f.x, 2 - 0.5f * f.y, 3 - 0.5f * f.z), 1e-4f);
    // the drag plane faces the camera: moving the mouse keeps the target on it, under the mouse
    picking_move(&p, &c, 500.0f, 250.0f);
    assert_float_equal(vm_dot(vm_sub(p.target, p.plane_point), p.plane_normal), 0.0f, 1e-4f);
    float px, py;
    assert_true(camera_project(&c, p.target, &px, &py));
    assert_float_equal(px, 500.0f, 0.01f);
    assert_float_equal(py, 250.0f, 0.01f);
    picking_end(&p);
    assert_false(p.active);
    rb_destroy_world(w);
}

static void test_click_on_static_ground_or_sky_grabs_nothing(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world_zero_g();
    pu_add_ground(w, 0.6f, 0.0f);
    camera c = test_camera(); // looking down at (1, 2, 3): the centre pixel sees the ground beyond
    pick_state p;
    assert_false(picking_begin(&p, w, &c, 400.0f, 300.0f));
    assert_false(p.active);
    assert_false(picking_begin(&p, w, &c, 400.0f, 0.0f)); // the top edge: above the horizon? either way no body
    rb_destroy_world(w);
}

static void test_spring_force_pulls_towards_the_target_and_damps_motion(void **state)
{
    (void)state;
    const float dt = 1.0f / 60.0f, m = 2.0f, f = 2.0f, zeta = 0.5f;
    float omega = 2.0f * VM_PI * f; // 12.57 rad/s, ω dt = 0.21 <= 0.5: not lowered
    // at the target and at rest: no force
    rb_vec3 F = picking_spring_force(m, vm_vec3(1, 1, 1), vm_vec3(0, 0, 0), vm_vec3(1, 1, 1), f, zeta, dt);
    assert_vec_near(F, vm_vec3(0, 0, 0), 0.0f);
    // 0.1 m short of the target: F = m ω² 0.1 towards it
    F = picking_spring_force(m, vm_vec3(0, 0, 0), vm_vec3(0, 0, 0), vm_vec3(0.1f, 0, 0), f, zeta, dt);
    assert_vec_near(F, vm_vec3(m * omega * omega * 0.1f, 0, 0), 1e-3f);
    // moving at 1 m/s at the target: F = −2 ζ ω m v
    F = picking_spring_force(m, vm_vec3(0, 0, 0), vm_vec3(0, 1, 0), vm_vec3(0, 0, 0), f, zeta, dt);
    assert_vec_near(F, vm_vec3(0, -2.0f * zeta * omega * m, 0), 1e-3f);
    // far away: capped at m · 400 m/s²
    F = picking_spring_force(m, vm_vec3(0, 0, 0), vm_vec3(0, 0, 0), vm_vec3(0, 0, 100), f, zeta, dt);
    assert_float_equal(vm_len(F), m * 400.0f, 1e-2f);
    // a long step lowers ω to 0.5 / dt: dt = 0.1 s gives ω = 5, F = m 25 x
    F = picking_spring_force(m, vm_vec3(0, 0, 0), vm_vec3(0, 0, 0), vm_vec3(0.1f, 0, 0), f, zeta, 0.1f);
    assert_vec_near(F, vm_vec3(m * 25.0f * 0.1f, 0, 0), 1e-4f);
}

static void test_dragging_pulls_a_box_to_the_mouse_and_it_settles(void **state)
{
    (void)state;
    // zero gravity; grab a box (1 kg, half 0.25) at its centre-facing surface point, move the target
    // 1 m to the side and step 3 s: the grabbed point ends within 1 cm of the target, nearly at rest
    rb_world_id w = pu_make_world_zero_g();
    rb_body_id box = pu_box(w, v3(1, 2, 3), quat_identity(), v3(0.25f, 0.25f, 0.25f), 1.0f, 0.6f, 0.0f);
    camera c = test_camera();
    pick_state p;
    assert_true(picking_begin(&p, w, &c, 400.0f, 300.0f));
    assert_true(rb_body_equal(p.body, box));
    p.target = vm_add(p.target, vm_vec3(1.0f, 0.0f, 0.0f));
    for (int i = 0; i < 180; ++i) {
        picking_apply(&p, 1.0f / 60.0f);
        RB_CHECK(rb_world_step(w));
    }
    rb_vec3 anchor;
    assert_true(picking_anchor(&p, &anchor));
    assert_true(vm_len(vm_sub(anchor, p.target)) < 0.01f);
    assert_true(v3_len(pu_velocity(box)) < 0.05f);
    // the body destroyed under the mouse: the pick lets go instead of failing
    RB_CHECK(rb_destroy_body(box));
    picking_apply(&p, 1.0f / 60.0f);
    assert_false(p.active);
    rb_destroy_world(w);
}

static void test_ray_plane_intersection(void **state)
{
    (void)state;
    rb_vec3 at;
    assert_true(ray_plane_intersection(vm_vec3(0, 5, 0), vm_vec3(0, -1, 0), vm_vec3(3, 1, 3), vm_vec3(0, 1, 0), &at));
    assert_vec_near(at, vm_vec3(0, 1, 0), 1e-6f);
    assert_false(ray_plane_intersection(vm_vec3(0, 5, 0), vm_vec3(1, 0, 0), vm_vec3(0, 1, 0), vm_vec3(0, 1, 0), &at));
    assert_false(ray_plane_intersection(vm_vec3(0, 5, 0), vm_vec3(0, 1, 0), vm_vec3(0, 1, 0), vm_vec3(0, 1, 0), &at));
}

// ---- colours ------------------------------------------------------------------------------------

static void test_shape_colours_come_in_families_and_sleep_darker(void **state)
{
    (void)state;
    for (int slot = 0; slot < 200; ++slot) {
        uint8_t box[3], ball[3], pill[3], ground[3], asleep[3];
        shape_color(KIND_BOX, slot, RB_BODY_DYNAMIC, box);
        shape_color(KIND_SPHERE, slot, RB_BODY_DYNAMIC, ball);
        shape_color(KIND_CAPSULE, slot, RB_BODY_DYNAMIC, pill);
        shape_color(KIND_BOX, slot, RB_BODY_STATIC, ground);
        uint8_t rock[3];
        shape_color(KIND_CONVEX, slot, RB_BODY_DYNAMIC, rock);
        assert_true(rock[1] > rock[2] && rock[2] > rock[0]); // teal: green > blue > red
        assert_true(box[0] > box[1] && box[1] > box[2]);   // orange: red > green > blue
        assert_true(ball[2] > ball[1] && ball[2] > ball[0]); // blue
        assert_true(pill[1] > pill[0] && pill[1] > pill[2]); // green
        assert_true(abs(ground[0] - ground[2]) < 20);      // grey
        sleeping_tint(box, asleep);
        assert_true(asleep[0] + asleep[1] + asleep[2] < box[0] + box[1] + box[2]);
        assert_true(asleep[0] > asleep[2]); // still warm
    }
}

// ---- convex hulls ---------------------------------------------------------------------------------

static rb_hull_id cube_hull(rb_world_id w, float half)
{
    rb_vec3 p[8];
    for (int k = 0; k < 8; ++k)
        p[k] = vm_vec3(k & 1 ? half : -half, k & 2 ? half : -half, k & 4 ? half : -half);
    rb_hull_def d = rb_default_hull_def();
    d.points = p;
    d.count = 8;
    rb_hull_id h;
    assert_int_equal(rb_compute_hull(w, &d, &h), RB_OK);
    return h;
}

static rb_vec3 mesh_point(const hull_mesh_set *s, int i)
{
    const float *p = s->vertices[i].position;
    return vm_vec3(p[0], p[1], p[2]);
}

// Area and enclosed volume of mesh m (divergence theorem), and checks on every triangle: seen from
// outside it is counter-clockwise (its normal points away from the origin, inside the hull), and its
// vertices' normals lean the same way.
static void mesh_measure(const hull_mesh_set *s, int m, double *area, double *volume)
{
    *area = *volume = 0.0;
    for (int i = s->first_index[m]; i < s->first_index[m] + s->index_counts[m]; i += 3) {
        rb_vec3 a = mesh_point(s, (int)s->indices[i]), b = mesh_point(s, (int)s->indices[i + 1]);
        rb_vec3 c = mesh_point(s, (int)s->indices[i + 2]);
        rb_vec3 n = vm_cross(vm_sub(b, a), vm_sub(c, a));
        *area += 0.5 * vm_len(n);
        *volume += vm_dot(a, vm_cross(b, c)) / 6.0;
        rb_vec3 mid = vm_scale(vm_add(vm_add(a, b), c), 1.0f / 3.0f);
        if (vm_len(n) > 1e-9f)
            assert_true(vm_dot(n, mid) > 0.0f);
        for (int k = 0; k < 3; ++k) {
            const float *vn = s->vertices[s->indices[i + k]].normal;
            assert_float_equal(vm_len(vm_vec3(vn[0], vn[1], vn[2])), 1.0f, 1e-5f);
            if (vm_len(n) > 1e-9f)
                assert_true(vm_dot(vm_vec3(vn[0], vn[1], vn[2]), n) > 0.0f);
        }
    }
}

static void test_a_sharp_hull_is_its_faces_flat_shaded(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world_zero_g();
    hull_mesh_set s = {0};
    char err[256];
    assert_true(hull_mesh_set_add(&s, cube_hull(w, 0.5f), 0.0f, err, sizeof err));
    assert_int_equal(s.mesh_count, 1);
    double area, volume;
    mesh_measure(&s, 0, &area, &volume);
    assert_float_equal(area, 6.0, 1e-5);
    assert_float_equal(volume, 1.0, 1e-5);
    // flat shading: each triangle's three normals are its face's, an axis of the cube
    for (int i = 0; i < s.index_counts[0]; ++i) {
        const float *n = s.vertices[s.indices[i]].normal;
        assert_float_equal(fabsf(n[0]) + fabsf(n[1]) + fabsf(n[2]), 1.0f, 1e-6f);
    }
    assert_int_equal(s.index_counts[0] % 3, 0);
    // a stale hull is refused with the library's message, and the set is unchanged
    rb_hull_id gone = cube_hull(w, 0.25f);
    assert_int_equal(rb_destroy_hull(gone), RB_OK);
    int vertices = s.vertex_count, indices = s.index_count;
    assert_false(hull_mesh_set_add(&s, gone, 0.0f, err, sizeof err));
    assert_non_null(strstr(err, "cannot read hull"));
    assert_int_equal(s.mesh_count, 1);
    assert_int_equal(s.vertex_count, vertices);
    assert_int_equal(s.index_count, indices);
    hull_mesh_set_free(&s);
    rb_destroy_world(w);
}

static void test_a_rounded_hull_is_the_hull_grown_by_its_radius(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world_zero_g();
    hull_mesh_set s = {0};
    char err[256];
    const float r = 0.2f;
    assert_true(hull_mesh_set_add(&s, cube_hull(w, 0.5f), r, err, sizeof err));
    // every vertex lies r from the cube [-0.5, 0.5]^3, its normal pointing away from the cube's nearest point
    for (int i = 0; i < s.vertex_count; ++i) {
        rb_vec3 p = mesh_point(&s, i);
        rb_vec3 q = vm_vec3(fminf(fmaxf(p.x, -0.5f), 0.5f), fminf(fmaxf(p.y, -0.5f), 0.5f), fminf(fmaxf(p.z, -0.5f), 0.5f));
        assert_float_equal(vm_len(vm_sub(p, q)), r, 1e-5f);
        const float *n = s.vertices[i].normal;
        assert_vec_near(vm_vec3(n[0], n[1], n[2]), vm_scale(vm_sub(p, q), 1.0f / r), 1e-4f);
    }
    // area and volume as Steiner's formulas give them for the rounded cube, less what the chords of the
    // arcs cut off (under 2% at 4 segments a quarter circle)
    double area, volume;
    mesh_measure(&s, 0, &area, &volume);
    double pi = 3.14159265358979, a = 6.0 + 3.0 * 2.0 * pi * r + 4.0 * pi * r * r;
    double v = 1.0 + 6.0 * r + 3.0 * pi * r * r + 4.0 / 3.0 * pi * r * r * r;
    assert_true(area < a && area > 0.98 * a);
    assert_true(volume < v && volume > 0.98 * v);
    hull_mesh_set_free(&s);
    rb_destroy_world(w);
}

static void test_the_cache_reads_a_shared_hull_once_and_places_each_shape(void **state)
{
    (void)state;
    rb_world_id w = pu_make_world_zero_g();
    rb_hull_id cube = cube_hull(w, 0.3f), big = cube_hull(w, 0.6f);
    rb_shape_def sd = rb_default_shape_def();
    struct { rb_hull_id hull; float radius; rb_vec3 at; } bodies[] = {
        {cube, 0.0f, {0, 1, 0}}, {big, 0.0f, {2, 1, 0}}, {cube, 0.0f, {4, 1, 0}}, {cube, 0.05f, {6, 1, 0}},
        {cube, 0.0f, {8, 1, 0}}, {big, 0.0f, {10, 1, 0}},
    };
    for (int i = 0; i < 6; ++i) {
        rb_body_def bd = rb_default_body_def();
        bd.type = RB_BODY_DYNAMIC;
        bd.position = bodies[i].at;
        rb_body_id b;
        rb_shape_id sh;
        assert_int_equal(rb_create_body(w, &bd, &b), RB_OK);
        rb_convex cv = {bodies[i].hull, bodies[i].radius};
        assert_int_equal(rb_create_convex_shape(b, &sd, &cv, &sh), RB_OK);
    }
    shape_cache c;
    char err[256];
    assert_true(shape_cache_build(&c, w, err, sizeof err));
    assert_int_equal(c.counts[KIND_CONVEX], 6);
    assert_int_equal(c.hulls.mesh_count, 3); // the cube, the big cube, the rounded cube: read once each
    assert_true(c.mesh_version != 0);
    int total = 0;
    for (int m = 0; m < c.hulls.mesh_count; ++m) {
        total += c.mesh_instances[m];
        for (int i = c.mesh_first[m]; i < c.mesh_first[m] + c.mesh_instances[m]; ++i)
            assert_int_equal(c.shapes[KIND_CONVEX][i].mesh, m);
    }
    assert_int_equal(total, 6);
    // the framing box holds every hull
    assert_true(c.bounds_lo.x <= -0.3f && c.bounds_hi.x >= 10.6f && c.bounds_hi.y >= 1.6f);
    assert_true(shape_cache_update(&c, w, 100.0f, err, sizeof err));
    assert_int_equal(c.convex_count, 6);
    for (int i = 0; i < 6; ++i) { // instance i is shape i, at its body
        const cached_shape *sh = &c.shapes[KIND_CONVEX][i];
        rb_transform t = shape_cache_body_pose(&c, sh->body_slot);
        assert_vec_near(vm_vec3(c.convexes[i].position[0], c.convexes[i].position[1], c.convexes[i].position[2]), t.p,
                        1e-6f);
        assert_float_equal(c.convexes[i].scale[0], 1.0f, 0.0f);
    }
    unsigned version = c.mesh_version;
    shape_cache_free(&c);
    assert_true(shape_cache_build(&c, w, err, sizeof err));
    assert_true(c.mesh_version != version); // built again: the renderer uploads the meshes again
    shape_cache_free(&c);
    rb_destroy_world(w);
}

static void test_click_on_a_hull_grabs_it_at_its_surface(void **state)
{
    (void)state;
    // a cube hull (half 0.5, turned to face the camera) at the camera's target: the centre pixel hits
    // its face 0.5 m in front of the centre
    rb_world_id w = pu_make_world_zero_g();
    camera c = test_camera();
    rb_vec3 f, r, u;
    camera_basis(&c, &f, &r, &u);
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    bd.position = vm_vec3(1, 2, 3);
    bd.rotation = vm_quat_from_to(vm_vec3(0, 0, -1), f); // its -z face towards the eye
    rb_body_id b;
    rb_shape_id sh;
    assert_int_equal(rb_create_body(w, &bd, &b), RB_OK);
    rb_shape_def sd = rb_default_shape_def();
    rb_convex cv = {cube_hull(w, 0.5f), 0.0f};
    assert_int_equal(rb_create_convex_shape(b, &sd, &cv, &sh), RB_OK);
    pick_state p;
    assert_true(picking_begin(&p, w, &c, 400.0f, 300.0f));
    assert_true(rb_body_equal(p.body, b));
    assert_vec_near(p.target, vm_vec3(1 - 0.5f * f.x, 2 - 0.5f * f.y, 3 - 0.5f * f.z), 1e-3f);
    rb_destroy_world(w);
}

// ---- joints ---------------------------------------------------------------------------------------

static rb_quat quat_axis_angle(rb_vec3 axis, float angle)
{
    rb_vec3 a = vm_normalize(axis);
    float s = sinf(0.5f * angle);
    return (rb_quat){a.x * s, a.y * s, a.z * s, cosf(0.5f * angle)};
}

static rb_vec3 frame_axis(rb_quat frame, int i)
{
    return vm_rotate(frame, vm_vec3(i == 0 ? 1.0f : 0.0f, i == 1 ? 1.0f : 0.0f, i == 2 ? 1.0f : 0.0f));
}

static void test_hinge_arc_spans_lower_to_upper_on_the_circle_across_its_axis(void **state)
{
    (void)state;
    // a frame turned off the world's axes; the arc from −60° to +100° at 0.3 m about (1, 2, 3)
    rb_quat frame = quat_axis_angle(vm_vec3(1.0f, 2.0f, -0.5f), 1.1f);
    rb_vec3 c = vm_vec3(1, 2, 3), x = frame_axis(frame, 0), y = frame_axis(frame, 1), z = frame_axis(frame, 2);
    const float lower = -60.0f * VM_PI / 180.0f, upper = 100.0f * VM_PI / 180.0f;
    for (int i = 0; i <= 16; ++i) {
        float a = lower + (upper - lower) * (float)i / 16.0f;
        rb_vec3 u = vm_sub(joint_hinge_arc_point(c, frame, 0.3f, a), c);
        assert_float_equal(vm_len(u), 0.3f, 1e-5f);    // on the circle
        assert_float_equal(vm_dot(u, z), 0.0f, 1e-5f); // across the axis
        // at its angle from ŷ, right-handed about ẑ: the hinge angle's formula atan2((ŷ × u)·ẑ, ŷ·u)
        assert_float_equal(atan2f(vm_dot(vm_cross(y, u), z), vm_dot(y, u)), a, 1e-5f);
    }
    // 0 on ŷ; a quarter turn about ẑ takes ŷ to −x̂
    assert_vec_near(joint_hinge_arc_point(c, frame, 1.0f, 0.0f), vm_add(c, y), 1e-6f);
    assert_vec_near(joint_hinge_arc_point(c, frame, 1.0f, 0.5f * VM_PI), vm_sub(c, x), 1e-6f);
}

static void test_hinge_tick_at_the_joints_angle_lies_along_bs_y(void **state)
{
    (void)state;
    // the drawing and the library agree on the angle's zero and sense: B turned by 0.7 rad about the
    // hinge's axis (through the anchor) reads 0.7 rad, and the tick drawn at that angle on A's frame
    // lies along B's copy of ŷ
    rb_world_id w = pu_make_world_zero_g();
    rb_body_id b = pu_box(w, v3(0, 0, 0), quat_identity(), v3(0.2f, 0.2f, 0.2f), 1.0f, 0.5f, 0.0f);
    rb_joint_def def = rb_default_hinge_joint_def();
    def.body_b = b;
    def.anchor = v3(0.5f, 0.0f, 0.0f);
    def.axis = v3(1.0f, 1.0f, 0.0f);
    rb_joint_id j;
    RB_CHECK(rb_create_joint(w, &def, &j));
    rb_quat q = quat_axis_angle(def.axis, 0.7f);
    RB_CHECK(rb_body_set_transform(b, vm_sub(def.anchor, vm_rotate(q, def.anchor)), q));
    float angle;
    rb_vec3 pa;
    rb_quat qa, qb;
    RB_CHECK(rb_joint_get_coordinate(j, &angle));
    RB_CHECK(rb_joint_get_anchors(j, &pa, NULL));
    RB_CHECK(rb_joint_get_frames(j, &qa, &qb));
    assert_float_equal(angle, 0.7f, 1e-4f);
    assert_vec_near(vm_sub(joint_hinge_arc_point(pa, qa, 1.0f, angle), pa), frame_axis(qb, 1), 1e-4f);
    rb_destroy_world(w);
}

static void test_cone_rim_lies_at_the_swing_limit_and_is_elliptical_when_the_spans_differ(void **state)
{
    (void)state;
    rb_quat frame = quat_axis_angle(vm_vec3(0.3f, -1.0f, 0.4f), 0.8f);
    rb_vec3 x = frame_axis(frame, 0), y = frame_axis(frame, 1), z = frame_axis(frame, 2);
    const float s1 = 0.9f, s2 = 0.35f; // about ẑ, about ŷ
    for (int i = 0; i < 48; ++i) {
        float phi = 2.0f * VM_PI * (float)i / 48.0f;
        rb_vec3 d = joint_cone_rim_direction(frame, s1, s2, phi);
        assert_float_equal(vm_len(d), 1.0f, 1e-5f);
        // swung about n = cos φ ŷ + sin φ ẑ, by the limit the solver puts on a swing about n
        rb_vec3 axd = vm_cross(x, d);
        rb_vec3 n = vm_normalize(axd);
        assert_vec_near(n, vm_add(vm_scale(y, cosf(phi)), vm_scale(z, sinf(phi))), 1e-4f);
        float swing = atan2f(vm_len(axd), vm_dot(x, d));
        assert_float_equal(swing, joint_cone_swing_limit(s1, s2, vm_dot(n, y), vm_dot(n, z)), 1e-4f);
        assert_true(swing >= s2 - 1e-4f && swing <= s1 + 1e-4f);
    }
    // about ŷ (φ = 0) by swing_span2; about ẑ (φ = π/2) by swing_span1, which swings x̂ towards ŷ
    rb_vec3 d0 = joint_cone_rim_direction(frame, s1, s2, 0.0f);
    rb_vec3 d90 = joint_cone_rim_direction(frame, s1, s2, 0.5f * VM_PI);
    assert_float_equal(acosf(vm_dot(d0, x)), s2, 1e-4f);
    assert_float_equal(vm_dot(d0, y), 0.0f, 1e-5f);
    assert_vec_near(d90, vm_add(vm_scale(x, cosf(s1)), vm_scale(y, sinf(s1))), 1e-5f);
    // equal spans: a round cone
    for (int i = 0; i < 12; ++i)
        assert_float_equal(acosf(vm_dot(joint_cone_rim_direction(frame, 0.5f, 0.5f, 0.5f * (float)i), x)), 0.5f,
                           1e-4f);
}

static void test_spring_zigzag_runs_from_anchor_to_anchor_with_teeth_to_either_side(void **state)
{
    (void)state;
    rb_vec3 a = vm_vec3(0, 1, 0), b = vm_vec3(2, 1, 0), side = vm_vec3(0, 0, 1), pts[2 * 5 + 2];
    int n = joint_zigzag(a, b, side, 0.1f, 5, pts);
    assert_int_equal(n, 12);
    assert_vec_near(pts[0], a, 0.0f);
    assert_vec_near(pts[n - 1], b, 0.0f);
    for (int i = 1; i < n - 1; ++i) {
        assert_float_equal(pts[i].z, (i & 1) ? 0.1f : -0.1f, 1e-6f); // alternating sides
        assert_float_equal(pts[i].y, 1.0f, 1e-6f);
        assert_true(pts[i].x > pts[i - 1].x); // forward all the way
    }
}

// A world with one joint of each kind between boxes (zero gravity, so nothing moves).
typedef struct joint_world {
    rb_world_id w;
    rb_joint_id joints[7];
    int count;
    int links; // lines from a body's centre to its anchor: two per joint, one for a joint to the world
} joint_world;

static rb_joint_id add_joint(joint_world *jw, rb_joint_def def, rb_body_id a, rb_body_id b, rb_vec3 anchor)
{
    def.body_a = a;
    def.body_b = b;
    def.anchor = anchor;
    if (def.type == RB_JOINT_DISTANCE || def.type == RB_JOINT_SPRING) {
        // from A's face to B's, 0.6 m apart
        def.anchor.x -= 0.3f;
        def.separate_anchor_b = true;
        def.anchor_b = vm_vec3(anchor.x + 0.3f, anchor.y, anchor.z);
    }
    rb_joint_id id;
    RB_CHECK(rb_create_joint(jw->w, &def, &id));
    jw->joints[jw->count++] = id;
    jw->links += rb_body_is_valid(a) ? 2 : 1;
    return id;
}

static joint_world make_joint_world(void)
{
    joint_world jw = {pu_make_world_zero_g(), {{0}}, 0, 0};
    rb_body_id box[7];
    for (int i = 0; i < 7; ++i)
        box[i] = pu_box(jw.w, v3((float)i, 0, 0), quat_identity(), v3(0.2f, 0.2f, 0.2f), 1.0f, 0.5f, 0.0f);
    rb_joint_def hinge = rb_default_hinge_joint_def();
    hinge.enable_limit = true;
    hinge.lower = -0.5f;
    hinge.upper = 1.0f;
    rb_joint_def cone = rb_default_cone_twist_joint_def();
    cone.axis = v3(1, 0, 0);
    cone.swing_span1 = 0.6f;
    cone.swing_span2 = 0.3f;
    rb_joint_def slider = rb_default_slider_joint_def();
    slider.axis = v3(1, 0, 0);
    slider.enable_limit = true;
    slider.lower = -0.2f;
    slider.upper = 0.3f;
    add_joint(&jw, hinge, box[0], box[1], v3(0.5f, 0, 0));
    add_joint(&jw, cone, box[1], box[2], v3(1.5f, 0, 0));
    add_joint(&jw, slider, box[2], box[3], v3(2.5f, 0, 0));
    add_joint(&jw, rb_default_distance_joint_def(), box[3], box[4], v3(3.5f, 0, 0));
    add_joint(&jw, rb_default_spring_joint_def(), box[4], box[5], v3(4.5f, 0, 0));
    add_joint(&jw, rb_default_fixed_joint_def(), box[5], box[6], v3(5.5f, 0, 0));
    add_joint(&jw, rb_default_ball_joint_def(), rb_null_body_id, box[0], v3(0, 1, 0));
    return jw;
}

static bool same_color(const line_vertex *v, joint_color c)
{
    return v->color[0] == joint_colors[c][0] && v->color[1] == joint_colors[c][1] && v->color[2] == joint_colors[c][2];
}

// Whether the lines have one from p to q.
static bool has_line(const joint_draw *d, rb_vec3 p, rb_vec3 q)
{
    for (int i = 0; i + 1 < d->line_count; i += 2) {
        rb_vec3 a = vm_vec3(d->lines[i].position[0], d->lines[i].position[1], d->lines[i].position[2]);
        rb_vec3 b = vm_vec3(d->lines[i + 1].position[0], d->lines[i + 1].position[1], d->lines[i + 1].position[2]);
        if (vm_len(vm_sub(a, p)) < 1e-5f && vm_len(vm_sub(b, q)) < 1e-5f)
            return true;
    }
    return false;
}

static void test_every_joint_is_drawn_with_its_anchors_and_links_and_greyed_when_off(void **state)
{
    (void)state;
    joint_world jw = make_joint_world();
    shape_cache shapes;
    char err[256];
    assert_true(shape_cache_build(&shapes, jw.w, err, sizeof err));
    assert_true(shape_cache_update(&shapes, jw.w, 100.0f, err, sizeof err));
    camera cam = camera_framing(shapes.bounds_lo, shapes.bounds_hi, 1280, 720);
    joint_draw d;
    memset(&d, 0, sizeof d);
    assert_true(joint_draw_update(&d, jw.w, &shapes, &cam));
    assert_int_equal(d.joints, jw.count);
    assert_int_equal(d.anchor_count, jw.count);
    assert_int_equal(d.inactive, 0);
    assert_true(d.marker_size > 0.0f);
    // the gizmos come on top of the links: hinge arc, cone, slider range, rod, zig-zag
    assert_true(d.line_count > 2 * jw.links + 2 * 40);
    for (int k = 0; k < jw.count; ++k) {
        rb_vec3 pa, pb;
        rb_body_id a, b;
        RB_CHECK(rb_joint_get_anchors(jw.joints[k], &pa, &pb));
        RB_CHECK(rb_joint_get_bodies(jw.joints[k], &a, &b));
        assert_vec_near(vm_vec3(d.anchors_a[k].position[0], d.anchors_a[k].position[1], d.anchors_a[k].position[2]),
                        pa, 0.0f);
        assert_vec_near(vm_vec3(d.anchors_b[k].position[0], d.anchors_b[k].position[1], d.anchors_b[k].position[2]),
                        pb, 0.0f);
        assert_true(same_color(&d.anchors_a[k], JOINT_COLOR_A));
        assert_true(same_color(&d.anchors_b[k], JOINT_COLOR_B));
        // a line from each body's centre to its anchor: what is joined to what
        if (rb_body_is_valid(a))
            assert_true(has_line(&d, pu_position(a), pa));
        assert_true(has_line(&d, pu_position(b), pb));
    }
    for (int i = 0; i < d.line_count; ++i)
        for (int c = 0; c < 3; ++c)
            assert_true(isfinite(d.lines[i].position[c]));

    // switched off: counted, and grey
    RB_CHECK(rb_joint_set_enabled(jw.joints[0], false));
    assert_true(joint_draw_update(&d, jw.w, &shapes, &cam));
    assert_int_equal(d.inactive, 1);
    assert_true(same_color(&d.anchors_a[0], JOINT_COLOR_OFF));
    assert_true(same_color(&d.anchors_b[0], JOINT_COLOR_OFF));
    assert_true(same_color(&d.anchors_a[1], JOINT_COLOR_A));

    // seen from far away a joint is its anchors only: lines over bodies a few pixels large would hide them
    cam.distance = 5000.0f;
    assert_true(joint_draw_update(&d, jw.w, &shapes, &cam));
    assert_int_equal(d.joints, jw.count);
    assert_int_equal(d.anchor_count, jw.count);
    assert_int_equal(d.line_count, 0);

    joint_draw_free(&d);
    shape_cache_free(&shapes);
    rb_destroy_world(jw.w);
}

static void test_a_jointed_body_is_picked_and_pulled_within_its_joints_reach(void **state)
{
    (void)state;
    // a ball (r 0.25) at the camera's target (1, 2, 3), hanging from the world by a ball joint 1 m
    // above it; zero gravity. The centre pixel grabs it as any body; the target is then put 2 m to
    // the side, out of the joint's reach: the grabbed point swings round the pivot towards the target,
    // keeping its distance from the pivot (the joint holds against the spring)
    rb_world_id w = pu_make_world_zero_g();
    rb_body_id ball = pu_sphere(w, v3(1, 2, 3), 0.25f, 1.0f, 0.5f, 0.0f);
    rb_joint_def def = rb_default_ball_joint_def();
    def.body_b = ball;
    def.anchor = v3(1, 3, 3);
    rb_joint_id j;
    RB_CHECK(rb_create_joint(w, &def, &j));
    camera c = test_camera();
    pick_state p;
    assert_true(picking_begin(&p, w, &c, 400.0f, 300.0f));
    assert_true(rb_body_equal(p.body, ball));
    rb_vec3 grabbed;
    assert_true(picking_anchor(&p, &grabbed));
    float reach = vm_len(vm_sub(grabbed, def.anchor));
    p.target = vm_add(p.target, vm_vec3(2.0f, 0.0f, 0.0f));
    for (int i = 0; i < 240; ++i) {
        picking_apply(&p, 1.0f / 60.0f);
        RB_CHECK(rb_world_step(w));
    }
    assert_true(picking_anchor(&p, &grabbed));
    assert_float_equal(vm_len(vm_sub(grabbed, def.anchor)), reach, 0.02f * reach);
    rb_vec3 towards = vm_normalize(vm_sub(p.target, def.anchor));
    assert_true(vm_dot(vm_normalize(vm_sub(grabbed, def.anchor)), towards) > 0.99f);
    bool on = false;
    RB_CHECK(rb_joint_is_enabled(j, &on));
    assert_true(on);
    rb_destroy_world(w);
}

// RGB inside [lo, hi] in every channel.
static bool in_range(const uint8_t c[3], int r0, int r1, int g0, int g1, int b0, int b1)
{
    return c[0] >= r0 && c[0] <= r1 && c[1] >= g0 && c[1] <= g1 && c[2] >= b0 && c[2] <= b1;
}

static void test_joint_colours_stay_apart_from_the_scene_and_the_tests_colour_ranges(void **state)
{
    (void)state;
    // every joint colour, as drawn and as drawn hidden, misses tests/test_viewer.sh's ranges: the boxes
    // (BOX_RANGE), the text, the picking spring's white, the panel, the help's dark backing
    for (int k = 0; k < JOINT_COLOR_COUNT; ++k) {
        for (int hidden = 0; hidden < 2; ++hidden) {
            uint8_t c[3];
            for (int i = 0; i < 3; ++i)
                c[i] = (uint8_t)lroundf((float)joint_colors[k][i] * (hidden ? JOINT_HIDDEN_BRIGHTNESS : 1.0f));
            assert_false(in_range(c, 80, 255, 40, 200, 0, 95));
            assert_false(in_range(c, 225, 240, 225, 240, 225, 240));
            assert_false(in_range(c, 245, 255, 245, 255, 245, 255));
            assert_false(in_range(c, 28, 28, 32, 32, 42, 42));
            assert_false(in_range(c, 0, 80, 0, 80, 0, 90));
        }
    }
    // the test's JOINTS range (R 120-255, G 0-70, B 120-255) takes A's magenta, bright and hidden, and
    // no shape's colour, awake or asleep
    uint8_t hidden_a[3];
    for (int i = 0; i < 3; ++i)
        hidden_a[i] = (uint8_t)lroundf((float)joint_colors[JOINT_COLOR_A][i] * JOINT_HIDDEN_BRIGHTNESS);
    assert_true(in_range(joint_colors[JOINT_COLOR_A], 120, 255, 0, 70, 120, 255));
    assert_true(in_range(hidden_a, 120, 255, 0, 70, 120, 255));
    for (int slot = 0; slot < 200; ++slot) {
        for (int kind = 0; kind < KIND_PLANE; ++kind) {
            for (int type = 0; type < 3; ++type) {
                uint8_t c[3], asleep[3];
                shape_color((shape_kind)kind, slot, (rb_body_type)type, c);
                sleeping_tint(c, asleep);
                assert_false(in_range(c, 120, 255, 0, 70, 120, 255));
                assert_false(in_range(asleep, 120, 255, 0, 70, 120, 255));
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_camera_eye_sits_at_distance_above_target_looking_at_it),
        cmocka_unit_test(test_centre_pixel_ray_is_the_view_direction),
        cmocka_unit_test(test_pixel_ray_passes_through_the_point_projected_to_that_pixel),
        cmocka_unit_test(test_orbit_pan_and_zoom_move_the_camera_as_the_mouse_says),
        cmocka_unit_test(test_framing_shows_the_whole_bounding_box),
        cmocka_unit_test(test_click_on_a_ball_grabs_it_at_its_surface),
        cmocka_unit_test(test_click_on_static_ground_or_sky_grabs_nothing),
        cmocka_unit_test(test_spring_force_pulls_towards_the_target_and_damps_motion),
        cmocka_unit_test(test_dragging_pulls_a_box_to_the_mouse_and_it_settles),
        cmocka_unit_test(test_ray_plane_intersection),
        cmocka_unit_test(test_shape_colours_come_in_families_and_sleep_darker),
        cmocka_unit_test(test_a_sharp_hull_is_its_faces_flat_shaded),
        cmocka_unit_test(test_a_rounded_hull_is_the_hull_grown_by_its_radius),
        cmocka_unit_test(test_the_cache_reads_a_shared_hull_once_and_places_each_shape),
        cmocka_unit_test(test_click_on_a_hull_grabs_it_at_its_surface),
        cmocka_unit_test(test_hinge_arc_spans_lower_to_upper_on_the_circle_across_its_axis),
        cmocka_unit_test(test_hinge_tick_at_the_joints_angle_lies_along_bs_y),
        cmocka_unit_test(test_cone_rim_lies_at_the_swing_limit_and_is_elliptical_when_the_spans_differ),
        cmocka_unit_test(test_spring_zigzag_runs_from_anchor_to_anchor_with_teeth_to_either_side),
        cmocka_unit_test(test_every_joint_is_drawn_with_its_anchors_and_links_and_greyed_when_off),
        cmocka_unit_test(test_a_jointed_body_is_picked_and_pulled_within_its_joints_reach),
        cmocka_unit_test(test_joint_colours_stay_apart_from_the_scene_and_the_tests_colour_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
