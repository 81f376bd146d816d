// The orbit camera: a target point, a distance, yaw and pitch. Gives the view and projection
// matrices, turns a pixel into a world-space ray (for picking) and a world point into a pixel.
// Pure math, no window: tests/test_viewer_math.c checks it.
#ifndef RUBBLE_VIEW_CAMERA_H
#define RUBBLE_VIEW_CAMERA_H

#include <stdbool.h>

#include "view_math.h"

typedef struct camera {
    rb_vec3 target; ///< orbit centre, world
    float distance; ///< m from the target to the eye
    float yaw;      ///< rad about +y; 0 looks along -z
    float pitch;    ///< rad above the horizon (the eye is above the target for pitch > 0)
    float fov_y;    ///< vertical field of view, rad
    int width;      ///< drawable size in pixels
    int height;
} camera;

/// A camera looking at the box [lo, hi] from above and to the side, far enough to see all of it.
camera camera_framing(rb_vec3 lo, rb_vec3 hi, int width, int height);

rb_vec3 camera_eye(const camera *c);
/// Orthonormal basis: forward (from the eye to the target), right, up.
void camera_basis(const camera *c, rb_vec3 *forward, rb_vec3 *right, rb_vec3 *up);
/// Near and far clip distances (m), scaled with the orbit distance.
void camera_clip_range(const camera *c, float *near_z, float *far_z);
vm_mat4 camera_view(const camera *c);
vm_mat4 camera_projection(const camera *c);

/// Mouse motion in pixels: orbit (yaw, pitch), pan (move the target in the view plane), zoom
/// (wheel steps; positive comes closer).
void camera_orbit(camera *c, float dx, float dy);
void camera_pan(camera *c, float dx, float dy);
void camera_zoom(camera *c, float steps);

/// Ray through pixel (px, py) of the drawable (origin top left, pixel centres at +0.5): starts at the
/// eye, `dir` is unit.
void camera_pixel_ray(const camera *c, float px, float py, rb_vec3 *origin, rb_vec3 *dir);
/// Pixel of a world point (top-left origin); false if it is behind the eye.
bool camera_project(const camera *c, rb_vec3 p, float *px, float *py);

#endif
