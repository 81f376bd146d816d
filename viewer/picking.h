// Picking: click a dynamic body and pull it with a spring (the classic demo interaction).
//
// On mouse down a ray through the pixel is cast into the world (rb_world_cast_ray); a hit on a dynamic
// body remembers the anchor point in the body's frame and a drag plane through the hit point facing
// the camera. While dragging, the target is where the mouse ray meets that plane, and before every
// step a spring-damper force pulls the anchor towards the target (rb_body_apply_force, waking the
// body). No window or GL here: tests/test_viewer_math.c checks the math.
#ifndef RUBBLE_VIEW_PICKING_H
#define RUBBLE_VIEW_PICKING_H

#include <stdbool.h>

#include "camera.h"

typedef struct pick_state {
    bool active;
    rb_body_id body;
    rb_vec3 local_anchor; ///< grabbed point, in the body frame (relative to the body origin)
    rb_vec3 plane_point;  ///< drag plane: through the grabbed point ...
    rb_vec3 plane_normal; ///< ... facing the camera
    rb_vec3 target;       ///< world point the anchor is pulled towards
    float frequency;      ///< Hz of the spring (with the body's mass)
    float damping_ratio;
} pick_state;

/// Casts the ray through pixel (px, py). Grabs and returns true if it first hits a dynamic body.
bool picking_begin(pick_state *p, rb_world_id world, const camera *c, float px, float py);
/// Moves the target to where the ray through (px, py) meets the drag plane (unchanged if the ray is
/// parallel to it or the plane is behind the eye).
void picking_move(pick_state *p, const camera *c, float px, float py);
void picking_end(pick_state *p);

/// Applies the spring force for the next step of length `dt`, and a torque that damps the body's spin
/// at the same rate (a force at the anchor cannot). Ends the pick if the body is gone.
void picking_apply(pick_state *p, float dt);
/// World position of the grabbed point (for drawing the spring). False if the body is gone.
bool picking_anchor(const pick_state *p, rb_vec3 *out);

/// Spring-damper force on a body of mass `mass` at a point with velocity `velocity`, pulling `anchor`
/// towards `target`: F = m (ω² (target − anchor) − 2 ζ ω v), ω = 2π frequency, with ω lowered to
/// 0.5 / dt so the explicit force stays stable at the world's step, and |F| capped at m · 400 m/s².
rb_vec3 picking_spring_force(float mass, rb_vec3 anchor, rb_vec3 velocity, rb_vec3 target, float frequency,
                             float damping_ratio, float dt);

/// Where the ray (origin, unit dir) meets the plane (point, normal); false if parallel or behind.
bool ray_plane_intersection(rb_vec3 origin, rb_vec3 dir, rb_vec3 point, rb_vec3 normal, rb_vec3 *out);

#endif
