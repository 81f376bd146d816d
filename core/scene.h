// The host copy of a world's scene: structure-of-arrays, float32, vectors padded to 16 bytes.
//
// This is what the application creates, edits and reads. The CPU backend steps these arrays in
// place; a GPU backend keeps a device copy, uploads what `dirty` marks and downloads on request.
// Arrays may move when they grow: backends read the pointers from the scene on every call.
#ifndef RB_CORE_SCENE_H
#define RB_CORE_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/body_flags.h"
#include "kernels/bounds.h"
#include "kernels/joint.h"
#include "kernels/shape_geom.h"

// body_flags bits: core/kernels/body_flags.h (RB_BODY_*), shared with the device kernels.

// dirty bits: what the application changed since the backend last saw the scene
#define RB_DIRTY_BODY_STATE 0x1u    // pos, rot, velocities, forces, flags
#define RB_DIRTY_BODY_PROPS 0x2u    // mass, inertia, damping, local centre
#define RB_DIRTY_SHAPES 0x4u        // shape set, geometry or materials
#define RB_DIRTY_ALL 0x7u
#define RB_DIRTY_JOINTS 0x8u        // the joints (a device backend sends them all again)
#define RB_DIRTY_HULLS 0x10u        // the hull pool (a device backend sends it all again)

typedef struct rb_scene {
    // ---- bodies, slots [0, body_slots) ----
    int body_slots;
    int body_capacity;
    rb_float4 *body_pos;              // centre of mass, world
    rb_float4 *body_rot;              // orientation quaternion (x, y, z, w)
    rb_float4 *body_lin_vel;          // of the centre of mass
    rb_float4 *body_ang_vel;          // world frame
    rb_float4 *body_force;            // accumulated until the end of the step
    rb_float4 *body_torque;
    rb_float4 *body_local_center;     // xyz: centre of mass in the body frame; w: bounding radius about it
    rb_float4 *body_inertia_diag;     // local inertia about the centre: (Ixx, Iyy, Izz, mass)
    rb_float4 *body_inertia_offdiag;  // (Ixy, Ixz, Iyz, 0)
    rb_float4 *body_inv_inertia_diag; // inverse of the local tensor: (xx, yy, zz, inv_mass)
    rb_float4 *body_inv_inertia_offdiag; // (xy, xz, yz, 0)
    rb_float4 *body_params;           // (linear damping, angular damping, gravity scale, sleep time)
    uint32_t *body_flags;
    int *body_sleep_group;            // island the body fell asleep with (-1 while awake)

    // ---- shapes, slots [0, shape_slots) ----
    int shape_slots;
    int shape_capacity;
    int *shape_body;                  // owning body slot; -1 for a free shape slot
    int *shape_type;                  // RB_GEOM_*
    rb_float4 *shape_local_pos;       // relative to the body origin (not the centre of mass)
    rb_float4 *shape_local_rot;
    rb_float4 *shape_params;          // rb_geom params; planes in the body frame
    rb_float4 *shape_material;        // (friction, restitution, density, static friction or 0 = same as friction)
    uint32_t *shape_filter;           // 2 per shape: category bits, mask bits

    // ---- convex hulls: one record per hull (core/kernels/hull.h), the unit cube at offset 0 ----
    rb_float4 *hull_pool;             // NULL until the world's first hull
    int hull_pool_size;               // rb_float4 in use
    int hull_pool_capacity;

    // ---- joints, slots [0, joint_slots) (core/joint.c); a free slot has type -1 ----
    int joint_slots;
    int joint_capacity;
    rb_joint *joints;
    uint32_t joint_version;           // changes whenever a joint is made, destroyed, or switched on or off

    // ---- change tracking for device backends ----
    uint32_t dirty;
    int dirty_body_lo, dirty_body_hi;   // body slot range [lo, hi) with dirty state or props
    int dirty_shape_lo, dirty_shape_hi;
} rb_scene;

int rb_scene_reserve_bodies(rb_scene *s, int capacity);
int rb_scene_reserve_shapes(rb_scene *s, int capacity);
void rb_scene_free(rb_scene *s);
void rb_scene_mark_body(rb_scene *s, int body, uint32_t what);
void rb_scene_mark_shape(rb_scene *s, int shape);
void rb_scene_clear_dirty(rb_scene *s);

static inline uint32_t rb_scene_body_type(const rb_scene *s, int b) { return s->body_flags[b] & RB_BODY_TYPE_MASK; }

// World pose of a body's origin (positions are stored at the centre of mass).
static inline rb_xform rb_scene_body_origin(const rb_scene *s, int b)
{
    return rb_body_origin(s->body_pos[b], s->body_rot[b], s->body_local_center[b]);
}

#endif
