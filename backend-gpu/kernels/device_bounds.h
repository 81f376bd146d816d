// update_bounds: world inverse inertia of bodies; world pose, AABB and world plane of shapes.
// Same per-element code as backend-cpu/bounds.c.

RB_KERNEL void rb_body_inertia(int n, RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *inv_diag,
                              RB_GLOBAL const rb_float4 *inv_off, RB_GLOBAL const rb_float4 *rot,
                              RB_GLOBAL rb_mat3 *inv_inertia_world)
{
    int b = rb_thread_id();
    if (b >= n)
        return;
    uint f = flags[b];
    if (rb_is_dynamic_flags(f) && (f & RB_BODY_ALIVE)) {
        rb_float4 d = inv_diag[b], o = inv_off[b];
        rb_mat3 tensor = rb_mat3_symmetric(rb_f3(d.x, d.y, d.z), rb_f3(o.x, o.y, o.z));
        inv_inertia_world[b] = rb_mat3_rotate_tensor(rot[b], tensor);
    } else {
        inv_inertia_world[b] = rb_mat3_zero();
    }
}

RB_KERNEL void rb_shape_bounds(int ns, float contact_margin, float h, RB_GLOBAL const int *shape_body,
                              RB_GLOBAL const int *shape_type, RB_GLOBAL const rb_float4 *shape_local_pos,
                              RB_GLOBAL const rb_float4 *shape_local_rot, RB_GLOBAL const rb_float4 *shape_params,
                              RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *pos, RB_GLOBAL const rb_float4 *rot,
                              RB_GLOBAL const rb_float4 *local_center, RB_GLOBAL const rb_float4 *lin_vel,
                              RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL rb_xform *shape_world,
                              RB_GLOBAL rb_float4 *aabb_lo, RB_GLOBAL rb_float4 *aabb_hi, RB_GLOBAL rb_float4 *plane_world)
{
    int i = rb_thread_id();
    if (i >= ns)
        return;
    int b = shape_body[i];
    if (b < 0)
        return;
    float margin = contact_margin;
    if (flags[b] & RB_BODY_AWAKE)
        margin += h * (rb_len(rb_xyz(lin_vel[b])) + rb_len(rb_xyz(ang_vel[b])) * local_center[b].w);
    // the body origin (core/scene.h rb_scene_body_origin): positions are stored at the centre of mass
    rb_float4 q = rot[b];
    rb_float3 c = rb_rotate(q, rb_xyz(local_center[b]));
    rb_xform body = rb_xform_make(rb_sub(rb_xyz(pos[b]), c), q);
    rb_xform in_body = rb_xform_make(rb_xyz(shape_local_pos[i]), shape_local_rot[i]);
    rb_xform world = rb_xform_mul(body, in_body);
    shape_world[i] = world;
    if (shape_type[i] == RB_GEOM_PLANE) {
        plane_world[i] = rb_plane_to_world(world, shape_params[i]);
        return;
    }
    rb_float3 lo, hi;
    rb_geom_aabb(rb_geom_make(shape_type[i], world, shape_params[i]), margin, &lo, &hi);
    aabb_lo[i] = rb_f4_from3(lo, 0.0f);
    aabb_hi[i] = rb_f4_from3(hi, 0.0f);
}
