// update_bounds, per element: a body's world inverse inertia; a shape's world pose and its bounding box
// (or, for a plane, its world plane). backend-cpu/bounds.c and backend-gpu/kernels/device_bounds.h
// run these over their arrays.
#ifndef RB_KERNELS_BOUNDS_H
#define RB_KERNELS_BOUNDS_H

#include "body_flags.h"
#include "shape_geom.h"

// World pose of a body's origin: positions are stored at the centre of mass (local_center.xyz in the
// body frame).
RB_FN rb_xform rb_body_origin(rb_float4 pos, rb_float4 rot, rb_float4 local_center)
{
    rb_float3 c = rb_rotate(rot, rb_xyz(local_center));
    return rb_xform_make(rb_sub(rb_xyz(pos), c), rot);
}

// The inverse inertia tensor in the world frame; zero for a body that is not a live dynamic one, so
// the solvers can apply impulses to any body without asking its type.
RB_FN rb_mat3 rb_world_inv_inertia(unsigned int flags, rb_float4 inv_diag, rb_float4 inv_offdiag, rb_float4 rot)
{
    if (!rb_is_dynamic_flags(flags) || !(flags & RB_BODY_ALIVE))
        return rb_mat3_zero();
    rb_mat3 body_frame = rb_mat3_symmetric(rb_f3(inv_diag.x, inv_diag.y, inv_diag.z), rb_f3(inv_offdiag.x, inv_offdiag.y, inv_offdiag.z));
    return rb_mat3_rotate_tensor(rot, body_frame);
}

// The body's inverse inertia at orientation rot, as the symmetric matrix's diagonal (xx, yy, zz; w keeps
// inv_diag.w, the inverse mass) and upper off-diagonal (xy, xz, yz): the layout of the body-frame arrays,
// so the same lane gathers read it.
RB_FN void rb_world_inv_inertia_sym(rb_float4 inv_diag, rb_float4 inv_offdiag, rb_float4 rot, RB_GLOBAL rb_float4 *diag,
                                    RB_GLOBAL rb_float4 *offdiag)
{
    rb_mat3 body_frame = rb_mat3_symmetric(rb_f3(inv_diag.x, inv_diag.y, inv_diag.z),
                                           rb_f3(inv_offdiag.x, inv_offdiag.y, inv_offdiag.z));
    rb_mat3 m = rb_mat3_rotate_tensor(rot, body_frame);
    *diag = rb_f4(m.r0.x, m.r1.y, m.r2.z, inv_diag.w);
    *offdiag = rb_f4(m.r0.y, m.r0.z, m.r1.z, 0.0f);
}

// Shape i's world pose, then its box grown by the margin and by how far its body can move in the
// substep h (the broad phase must find the pairs the speculative contacts of the narrow phase need,
// see rb_closing_distance), or its world plane. A free shape slot is left alone.
RB_FN void rb_shape_update_bounds(int i, float contact_margin, float h, RB_GLOBAL const int *shape_body,
                                  RB_GLOBAL const int *shape_type, RB_GLOBAL const rb_float4 *shape_local_pos,
                                  RB_GLOBAL const rb_float4 *shape_local_rot, RB_GLOBAL const rb_float4 *shape_params,
                                  RB_GLOBAL const rb_float4 *hull_pool, RB_GLOBAL const unsigned int *body_flags, RB_GLOBAL const rb_float4 *body_pos,
                                  RB_GLOBAL const rb_float4 *body_rot, RB_GLOBAL const rb_float4 *body_local_center,
                                  RB_GLOBAL const rb_float4 *body_lin_vel, RB_GLOBAL const rb_float4 *body_ang_vel,
                                  RB_GLOBAL rb_xform *shape_world, RB_GLOBAL rb_float4 *aabb_lo,
                                  RB_GLOBAL rb_float4 *aabb_hi, RB_GLOBAL rb_float4 *plane_world)
{
    int b = shape_body[i];
    if (b < 0)
        return;
    float margin = contact_margin;
    if (body_flags[b] & RB_BODY_AWAKE)
        margin += h * (rb_len(rb_xyz(body_lin_vel[b])) + rb_len(rb_xyz(body_ang_vel[b])) * body_local_center[b].w);
    rb_xform body = rb_body_origin(body_pos[b], body_rot[b], body_local_center[b]);
    rb_xform in_body = rb_xform_make(rb_xyz(shape_local_pos[i]), shape_local_rot[i]);
    rb_xform world = rb_xform_mul(body, in_body);
    shape_world[i] = world;
    if (shape_type[i] == RB_GEOM_PLANE) {
        plane_world[i] = rb_plane_to_world(world, shape_params[i]);
        return;
    }
    rb_float3 lo, hi;
    rb_geom_aabb(rb_geom_make_pooled(shape_type[i], world, shape_params[i], hull_pool), margin, &lo, &hi);
    aabb_lo[i] = rb_f4_from3(lo, 0.0f);
    aabb_hi[i] = rb_f4_from3(hi, 0.0f);
}

#endif
