// rubble-view's window-free parts: the orbit camera (matrices, pixel rays, projection), picking
// through rb_world_cast_ray, the drag spring, and the colour families.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "camera.h"
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
        assert_true(box[0] > box[1] && box[1] > box[2]);   // orange: red > green > blue
        assert_true(ball[2] > ball[1] && ball[2] > ball[0]); // blue
        assert_true(pill[1] > pill[0] && pill[1] > pill[2]); // green
        assert_true(abs(ground[0] - ground[2]) < 20);      // grey
        sleeping_tint(box, asleep);
        assert_true(asleep[0] + asleep[1] + asleep[2] < box[0] + box[1] + box[2]);
        assert_true(asleep[0] > asleep[2]); // still warm
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
