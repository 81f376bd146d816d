// integrate_velocities and integrate_positions (per body: core/kernels/integrate.h, as in
// backend-cpu/integrate.c), and update_sleep (backend-cpu/islands.c).

// Forces act for the whole step: they are consumed (zeroed) at its last substep.
RB_KERNEL void rb_integrate_velocities(int nb, rb_float4 gravity4, float h, int last_substep, RB_GLOBAL uint *flags,
                                      RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang,
                                      RB_GLOBAL const rb_float4 *inertia_diag, RB_GLOBAL const rb_float4 *inertia_off,
                                      RB_GLOBAL const rb_float4 *inv_diag, RB_GLOBAL const rb_mat3 *inv_inertia_world,
                                      RB_GLOBAL rb_float4 *rot, RB_GLOBAL rb_float4 *force,
                                      RB_GLOBAL rb_float4 *torque, RB_GLOBAL const rb_float4 *params,
                                      RB_GLOBAL int *frozen, int pose_saved, RB_GLOBAL rb_float4 *pos,
                                      RB_GLOBAL const rb_float4 *start_pos, RB_GLOBAL const rb_float4 *start_rot)
{
    int b = rb_thread_id();
    if (b >= nb)
        return;
    uint f = flags[b];
    rb_float3 fo = rb_xyz(force[b]), to = rb_xyz(torque[b]);
    if (last_substep) {
        force[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        torque[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    frozen[b] = 0;
    if (!rb_integrates_velocity(f))
        return;
    rb_float3 v = rb_xyz(lin[b]), w = rb_xyz(ang[b]);
    if (!rb_body_integrate_velocity(&v, &w, rb_xyz(gravity4), inv_diag[b].w, inv_inertia_world[b], inertia_diag[b],
                                    inertia_off[b], rot[b], fo, to, params[b], h)) {
        rb_freeze_body(b, pose_saved, start_pos, start_rot, pos, rot, lin, ang, flags);
        frozen[b] = 1; // reported through `frozen`
        return;
    }
    lin[b] = rb_f4_from3(v, 0.0f);
    ang[b] = rb_f4_from3(w, 0.0f);
}

RB_KERNEL void rb_zero_pseudo(int nb, RB_GLOBAL rb_float4 *plin, RB_GLOBAL rb_float4 *pang)
{
    int b = rb_thread_id();
    if (b < nb) {
        plin[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        pang[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    }
}

RB_KERNEL void rb_integrate_positions(int nb, float h, RB_GLOBAL uint *flags, RB_GLOBAL rb_float4 *pos,
                                     RB_GLOBAL rb_float4 *rot, RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang,
                                     RB_GLOBAL const rb_float4 *plin, RB_GLOBAL const rb_float4 *pang,
                                     RB_GLOBAL int *frozen, int save_pose, RB_GLOBAL rb_float4 *start_pos,
                                     RB_GLOBAL rb_float4 *start_rot)
{
    int b = rb_thread_id();
    if (b >= nb)
        return;
    if (save_pose) { // the first substep: the poses a freeze goes back to
        start_pos[b] = pos[b];
        start_rot[b] = rot[b];
    }
    uint f = flags[b];
    if (!rb_integrates_position(f))
        return;
    rb_float3 v = rb_xyz(lin[b]), w = rb_xyz(ang[b]);
    rb_float3 new_pos = rb_xyz(pos[b]);
    rb_float4 new_q = rot[b];
    if (!rb_body_integrate_position(&new_pos, &new_q, v, w, rb_add(v, rb_xyz(plin[b])), rb_add(w, rb_xyz(pang[b])), h)) {
        rb_freeze_body(b, 1, start_pos, start_rot, pos, rot, lin, ang, flags);
        frozen[b] = 1;
        return;
    }
    pos[b] = rb_f4_from3(new_pos, 0.0f);
    rot[b] = new_q;
}

// Per-body rest timers; awake[b] = 1 for the bodies that take part in islands.
RB_KERNEL void rb_sleep_timers(int nb, float h, float lin_tol, float ang_tol, RB_GLOBAL const uint *flags,
                              RB_GLOBAL const rb_float4 *lin, RB_GLOBAL const rb_float4 *ang,
                              RB_GLOBAL const rb_float4 *local_center, RB_GLOBAL rb_float4 *params,
                              RB_GLOBAL float *rest_low, RB_GLOBAL int *awake)
{
    int b = rb_thread_id();
    if (b >= nb)
        return;
    uint f = flags[b];
    awake[b] = rb_joins_islands(f);
    if (!awake[b])
        return;
    params[b].w = rb_rest_timer(params[b].w, &rest_low[b], (f & RB_BODY_SLEEP_ENABLED) != 0, rb_xyz(lin[b]),
                                rb_xyz(ang[b]), local_center[b].w, lin_tol, ang_tol, h);
}

// Islands over this step's edges by union-find (core/kernels/constraint_graph.h: an island's root is
// its lowest body slot), by one work-item; islands that rested long enough fall asleep.
RB_KERNEL void rb_islands_serial(int nb, int ne, float time_to_sleep, RB_GLOBAL const rb_constraint_edge *edges,
                                int nj, RB_GLOBAL const rb_constraint_edge *joint_edges,
                                RB_GLOBAL uint *flags, RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang,
                                RB_GLOBAL const rb_float4 *params, RB_GLOBAL int *sleep_group, RB_GLOBAL int *parent,
                                RB_GLOBAL float *rest, RB_GLOBAL int *counters)
{
    if (rb_thread_id() != 0)
        return;
    counters[RB_CNT_SLEPT] = 0;
    if (counters[RB_CNT_AWAKE] == 0)
        return;
    for (int b = 0; b < nb; ++b)
        parent[b] = b;
    rb_unite_islands(ne, edges, flags, parent);
    rb_unite_islands(nj, joint_edges, flags, parent);
    for (int b = 0; b < nb; ++b)
        rest[b] = 1e30f;
    for (int b = 0; b < nb; ++b) {
        if (!rb_joins_islands(flags[b]))
            continue;
        int r = rb_find_root(parent, b);
        rest[r] = rb_minf(rest[r], params[b].w);
    }
    int slept = 0;
    for (int b = 0; b < nb; ++b) {
        if (!rb_joins_islands(flags[b]))
            continue;
        int r = rb_find_root(parent, b);
        if (rest[r] < time_to_sleep)
            continue;
        flags[b] &= ~RB_BODY_AWAKE;
        lin[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        ang[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        sleep_group[b] = r;
        ++slept;
    }
    counters[RB_CNT_SLEPT] = slept;
}
