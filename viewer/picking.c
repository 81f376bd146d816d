// Picking and the drag spring (see picking.h).
#include "picking.h"

#include <string.h>

#define PICK_RAY_LENGTH 1.0e4f // m: far enough for any scene on screen
#define MAX_SPRING_ACCEL 400.0f // m/s²: a fast drag cannot fling a body out of the world

bool ray_plane_intersection(rb_vec3 origin, rb_vec3 dir, rb_vec3 point, rb_vec3 normal, rb_vec3 *out)
{
    float denom = vm_dot(dir, normal);
    if (fabsf(denom) < 1e-6f)
        return false;
    float t = vm_dot(vm_sub(point, origin), normal) / denom;
    if (!(t >= 0.0f))
        return false;
    *out = vm_mad(origin, t, dir);
    return true;
}

bool picking_begin(pick_state *p, rb_world_id world, const camera *c, float px, float py)
{
    memset(p, 0, sizeof *p);
    rb_vec3 origin, dir;
    camera_pixel_ray(c, px, py, &origin, &dir);
    rb_ray_hit hit;
    if (rb_world_cast_ray(world, origin, vm_scale(dir, PICK_RAY_LENGTH), 0xffffffffu, &hit) != RB_OK || !hit.hit)
        return false;
    rb_body_type type;
    rb_transform xf;
    if (rb_body_get_type(hit.body, &type) != RB_OK || type != RB_BODY_DYNAMIC ||
        rb_body_get_transform(hit.body, &xf) != RB_OK)
        return false;
    rb_vec3 forward, right, up;
    camera_basis(c, &forward, &right, &up);
    p->active = true;
    p->body = hit.body;
    p->local_anchor = vm_transform_inv_point(xf, hit.point);
    p->plane_point = hit.point;
    p->plane_normal = vm_scale(forward, -1.0f);
    p->target = hit.point;
    p->frequency = 2.0f;
    p->damping_ratio = 0.5f;
    return true;
}

void picking_move(pick_state *p, const camera *c, float px, float py)
{
    if (!p->active)
        return;
    rb_vec3 origin, dir, at;
    camera_pixel_ray(c, px, py, &origin, &dir);
    if (ray_plane_intersection(origin, dir, p->plane_point, p->plane_normal, &at))
        p->target = at;
}

void picking_end(pick_state *p)
{
    p->active = false;
}

bool picking_anchor(const pick_state *p, rb_vec3 *out)
{
    rb_transform xf;
    if (!p->active || rb_body_get_transform(p->body, &xf) != RB_OK)
        return false;
    *out = vm_transform_point(xf, p->local_anchor);
    return true;
}

rb_vec3 picking_spring_force(float mass, rb_vec3 anchor, rb_vec3 velocity, rb_vec3 target, float frequency,
                             float damping_ratio, float dt)
{
    // Explicit spring on the mass as a whole. The force acts off the centre, where the effective mass
    // is smaller (down to about m/6 at a cube's corner), so ω·dt is kept at or below 0.5: stable with
    // margin for ω up to ~sqrt(6) times larger.
    float omega = 2.0f * VM_PI * frequency;
    if (dt > 0.0f && omega * dt > 0.5f)
        omega = 0.5f / dt;
    rb_vec3 accel = vm_sub(vm_scale(vm_sub(target, anchor), omega * omega), vm_scale(velocity, 2.0f * damping_ratio * omega));
    float a = vm_len(accel);
    if (a > MAX_SPRING_ACCEL)
        accel = vm_scale(accel, MAX_SPRING_ACCEL / a);
    return vm_scale(accel, mass);
}

void picking_apply(pick_state *p, float dt)
{
    if (!p->active)
        return;
    rb_transform xf;
    rb_vec3 center, v, w;
    float mass;
    if (rb_body_get_transform(p->body, &xf) != RB_OK || rb_body_get_world_center(p->body, &center) != RB_OK ||
        rb_body_get_linear_velocity(p->body, &v) != RB_OK || rb_body_get_angular_velocity(p->body, &w) != RB_OK ||
        rb_body_get_mass(p->body, &mass) != RB_OK) {
        p->active = false; // the body was destroyed (or the world reset)
        return;
    }
    rb_vec3 anchor = vm_transform_point(xf, p->local_anchor);
    rb_vec3 velocity = vm_add(v, vm_cross(w, vm_sub(anchor, center))); // of the anchor point
    rb_vec3 force = picking_spring_force(mass, anchor, velocity, p->target, p->frequency, p->damping_ratio, dt);
    rb_body_apply_force(p->body, force, anchor, true);
    // A force at the anchor cannot stop the body spinning about the anchor itself; damp the spin at
    // the spring's rate, with the mean principal inertia: τ = −2 ζ ω I w
    rb_mass_data md;
    if (rb_body_get_mass_data(p->body, &md) == RB_OK) {
        float omega = 2.0f * VM_PI * p->frequency;
        if (dt > 0.0f && omega * dt > 0.5f)
            omega = 0.5f / dt;
        float inertia = (md.inertia.x + md.inertia.y + md.inertia.z) / 3.0f;
        rb_body_apply_torque(p->body, vm_scale(w, -2.0f * p->damping_ratio * omega * inertia), true);
    }
}
