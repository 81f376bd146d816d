// The orbit camera (see camera.h).
#include "camera.h"

#define MIN_DISTANCE 0.05f
#define MAX_DISTANCE 1.0e5f
#define MAX_PITCH (0.49f * VM_PI) // just short of straight up or down, where yaw is undefined

// True if the 8 corners of [lo, hi] project inside the frame less `margin` (a fraction) on each side.
static bool corners_fit(const camera *c, rb_vec3 lo, rb_vec3 hi, float margin)
{
    for (int k = 0; k < 8; ++k) {
        rb_vec3 p = vm_vec3(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z);
        float px, py;
        if (!camera_project(c, p, &px, &py))
            return false;
        float mx = margin * (float)c->width, my = margin * (float)c->height;
        if (px < mx || px > (float)c->width - mx || py < my || py > (float)c->height - my)
            return false;
    }
    return true;
}

camera camera_framing(rb_vec3 lo, rb_vec3 hi, int width, int height)
{
    camera c;
    c.target = vm_scale(vm_add(lo, hi), 0.5f);
    c.fov_y = 45.0f * VM_PI / 180.0f;
    c.yaw = 35.0f * VM_PI / 180.0f;
    c.pitch = 25.0f * VM_PI / 180.0f;
    c.width = width > 0 ? width : 1;
    c.height = height > 0 ? height : 1;
    // far enough for the bounding sphere to fit the narrower field of view; then as close as the box's
    // corners allow, keeping 4% of the frame free at the edges (bisection: the corners' projections
    // shrink towards the centre as the eye backs away)
    float radius = fmaxf(0.5f * vm_len(vm_sub(hi, lo)), 0.25f);
    float aspect = (float)c.width / (float)c.height;
    float half_fov = 0.5f * c.fov_y;
    if (aspect < 1.0f)
        half_fov = atanf(tanf(half_fov) * aspect);
    float far_enough = radius / sinf(half_fov), too_close = 0.2f * far_enough;
    for (int i = 0; i < 24; ++i) {
        c.distance = 0.5f * (far_enough + too_close);
        if (corners_fit(&c, lo, hi, 0.04f))
            far_enough = c.distance;
        else
            too_close = c.distance;
    }
    c.distance = fmaxf(far_enough, MIN_DISTANCE);
    return c;
}

void camera_basis(const camera *c, rb_vec3 *forward, rb_vec3 *right, rb_vec3 *up)
{
    // from the eye to the target: yaw 0, pitch 0 looks along -z; positive pitch looks down
    float cp = cosf(c->pitch), sp = sinf(c->pitch);
    rb_vec3 f = vm_vec3(-sinf(c->yaw) * cp, -sp, -cosf(c->yaw) * cp);
    rb_vec3 r = vm_normalize(vm_cross(f, vm_vec3(0.0f, 1.0f, 0.0f)));
    *forward = f;
    *right = r;
    *up = vm_cross(r, f);
}

rb_vec3 camera_eye(const camera *c)
{
    rb_vec3 f, r, u;
    camera_basis(c, &f, &r, &u);
    return vm_mad(c->target, -c->distance, f);
}

void camera_clip_range(const camera *c, float *near_z, float *far_z)
{
    // near at 1/200 of the distance keeps 24-bit depth precise where the scene is; the far plane lies
    // well past the horizon of the ground grid
    *near_z = fminf(fmaxf(c->distance * 0.005f, 0.005f), 1.0f);
    *far_z = fmaxf(c->distance * 40.0f, 500.0f);
}

vm_mat4 camera_view(const camera *c)
{
    rb_vec3 f, r, u;
    camera_basis(c, &f, &r, &u);
    return vm_view_from_basis(camera_eye(c), r, u, f);
}

vm_mat4 camera_projection(const camera *c)
{
    float n, f;
    camera_clip_range(c, &n, &f);
    return vm_perspective(c->fov_y, (float)c->width / (float)c->height, n, f);
}

void camera_orbit(camera *c, float dx, float dy)
{
    const float rad_per_pixel = 0.005f;
    c->yaw -= dx * rad_per_pixel;
    c->pitch += dy * rad_per_pixel;
    c->yaw = fmodf(c->yaw, 2.0f * VM_PI);
    c->pitch = fminf(fmaxf(c->pitch, -MAX_PITCH), MAX_PITCH);
}

void camera_pan(camera *c, float dx, float dy)
{
    // one pixel at the target's depth is 2 d tan(fov/2) / height metres: the target follows the mouse
    rb_vec3 f, r, u;
    camera_basis(c, &f, &r, &u);
    float metres_per_pixel = 2.0f * c->distance * tanf(0.5f * c->fov_y) / (float)c->height;
    c->target = vm_mad(c->target, -dx * metres_per_pixel, r);
    c->target = vm_mad(c->target, dy * metres_per_pixel, u);
}

void camera_zoom(camera *c, float steps)
{
    c->distance *= powf(0.85f, steps);
    c->distance = fminf(fmaxf(c->distance, MIN_DISTANCE), MAX_DISTANCE);
}

void camera_pixel_ray(const camera *c, float px, float py, rb_vec3 *origin, rb_vec3 *dir)
{
    // normalised device coordinates of the pixel, then the direction in the camera basis: a symmetric
    // frustum has half-extents tan(fov/2) * aspect and tan(fov/2) at unit distance
    rb_vec3 f, r, u;
    camera_basis(c, &f, &r, &u);
    float ndc_x = 2.0f * px / (float)c->width - 1.0f;
    float ndc_y = 1.0f - 2.0f * py / (float)c->height;
    float ty = tanf(0.5f * c->fov_y), tx = ty * (float)c->width / (float)c->height;
    *origin = vm_mad(c->target, -c->distance, f);
    *dir = vm_normalize(vm_add(f, vm_add(vm_scale(r, ndc_x * tx), vm_scale(u, ndc_y * ty))));
}

bool camera_project(const camera *c, rb_vec3 p, float *px, float *py)
{
    vm_mat4 vp = vm_mat4_mul(camera_projection(c), camera_view(c));
    float clip[4];
    vm_mat4_transform(vp, p, clip);
    if (!(clip[3] > 0.0f))
        return false;
    float ndc_x = clip[0] / clip[3], ndc_y = clip[1] / clip[3];
    *px = (ndc_x + 1.0f) * 0.5f * (float)c->width;
    *py = (1.0f - ndc_y) * 0.5f * (float)c->height;
    return true;
}
