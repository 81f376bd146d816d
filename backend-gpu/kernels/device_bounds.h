// update_bounds: world inverse inertia of bodies; world pose, AABB and world plane of shapes. One
// work-item per element, running core/kernels/bounds.h as backend-cpu/bounds.c does.

RB_KERNEL void rb_body_inertia(int n, RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *inv_diag,
                              RB_GLOBAL const rb_float4 *inv_off, RB_GLOBAL const rb_float4 *rot,
                              RB_GLOBAL rb_mat3 *inv_inertia_world)
{
    int b = rb_thread_id();
    if (b < n)
        inv_inertia_world[b] = rb_world_inv_inertia(flags[b], inv_diag[b], inv_off[b], rot[b]);
}

RB_KERNEL void rb_shape_bounds(int ns, float contact_margin, float h, RB_GLOBAL const int *shape_body,
                              RB_GLOBAL const int *shape_type, RB_GLOBAL const rb_float4 *shape_local_pos,
                              RB_GLOBAL const rb_float4 *shape_local_rot, RB_GLOBAL const rb_float4 *shape_params,
                              RB_GLOBAL const rb_float4 *hull_pool, RB_GLOBAL const uint *flags,
                              RB_GLOBAL const rb_float4 *pos, RB_GLOBAL const rb_float4 *rot,
                              RB_GLOBAL const rb_float4 *local_center, RB_GLOBAL const rb_float4 *lin_vel,
                              RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL rb_xform *shape_world,
                              RB_GLOBAL rb_float4 *aabb_lo, RB_GLOBAL rb_float4 *aabb_hi, RB_GLOBAL rb_float4 *plane_world)
{
    int i = rb_thread_id();
    if (i < ns)
        rb_shape_update_bounds(i, contact_margin, h, shape_body, shape_type, shape_local_pos, shape_local_rot,
                               shape_params, hull_pool, flags, pos, rot, local_center, lin_vel, ang_vel, shape_world,
                               aabb_lo, aabb_hi, plane_world);
}
