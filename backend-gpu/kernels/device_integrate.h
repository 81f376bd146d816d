// integrate_velocities and integrate_positions (backend-cpu/integrate.c), and update_sleep
// (backend-cpu/islands.c).

// A body whose state stopped being finite is stopped and frozen (left out until the application
// resets it), and reported through `frozen`.
RB_FN void rb_freeze_body(int b, uint f, RB_GLOBAL uint *flags, RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang,
                          RB_GLOBAL int *frozen)
{
    lin[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    ang[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    flags[b] = (f | RB_BODY_FROZEN) & ~RB_BODY_AWAKE;
    frozen[b] = 1;
}

// Forces act for the whole step: they are consumed (zeroed) at its last substep.
RB_KERNEL void rb_integrate_velocities(int nb, rb_float4 gravity4, float h, int last_substep, RB_GLOBAL uint *flags,
                                      RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang,
                                      RB_GLOBAL const rb_float4 *inertia_diag, RB_GLOBAL const rb_float4 *inertia_off,
                                      RB_GLOBAL const rb_float4 *inv_diag, RB_GLOBAL const rb_mat3 *inv_inertia_world,
                                      RB_GLOBAL const rb_float4 *rot, RB_GLOBAL rb_float4 *force,
                                      RB_GLOBAL rb_float4 *torque, RB_GLOBAL const rb_float4 *params,
                                      RB_GLOBAL int *frozen)
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
    if (!rb_is_dynamic_flags(f) || !(f & RB_BODY_AWAKE) || (f & RB_BODY_FROZEN))
        return;
    rb_float3 v = rb_xyz(lin[b]), w = rb_xyz(ang[b]);
    rb_float4 d = inertia_diag[b], o = inertia_off[b];
    rb_mat3 inertia = rb_mat3_symmetric(rb_xyz(d), rb_xyz(o));
    rb_integrate_velocity(&v, &w, rb_xyz(gravity4), inv_diag[b].w, inv_inertia_world[b], inertia, rot[b], fo, to,
                          params[b], h);
    if (!rb_is_finite3(v) || !rb_is_finite3(w)) {
        rb_freeze_body(b, f, flags, lin, ang, frozen);
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
                                     RB_GLOBAL int *frozen)
{
    int b = rb_thread_id();
    if (b >= nb)
        return;
    uint f = flags[b];
    if ((f & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T || !(f & RB_BODY_AWAKE) || (f & RB_BODY_FROZEN) ||
        !(f & RB_BODY_ALIVE))
        return;
    rb_float3 v = rb_xyz(lin[b]), w = rb_xyz(ang[b]);
    rb_float3 new_pos = rb_xyz(pos[b]);
    rb_float4 new_q = rot[b];
    rb_float3 pv = rb_add(v, rb_xyz(plin[b])), pw = rb_add(w, rb_xyz(pang[b]));
    rb_integrate_position(&new_pos, &new_q, pv, pw, h);
    int finite = rb_is_finite3(new_pos) && rb_is_finite3(v) && rb_is_finite3(w) &&
                 rb_is_finite3(rb_f3(new_q.x, new_q.y, new_q.z)) && (new_q.w - new_q.w) == 0.0f;
    if (!finite) {
        rb_freeze_body(b, f, flags, lin, ang, frozen);
        return;
    }
    pos[b] = rb_f4_from3(new_pos, 0.0f);
    rot[b] = new_q;
}

// Per-body rest timers; awake[b] = 1 for the bodies that take part in islands.
RB_KERNEL void rb_sleep_timers(int nb, float h, float lin_tol, float ang_tol, RB_GLOBAL const uint *flags,
                              RB_GLOBAL const rb_float4 *lin, RB_GLOBAL const rb_float4 *ang,
                              RB_GLOBAL const rb_float4 *local_center, RB_GLOBAL rb_float4 *params, RB_GLOBAL int *awake)
{
    int b = rb_thread_id();
    if (b >= nb)
        return;
    uint f = flags[b];
    awake[b] = rb_joins_islands(f);
    if (!awake[b])
        return;
    params[b].w = rb_rest_timer(params[b].w, (f & RB_BODY_SLEEP_ENABLED) != 0, rb_xyz(lin[b]), rb_xyz(ang[b]),
                                local_center[b].w, lin_tol, ang_tol, h);
}

// Islands over this step's edges by union-find (core/kernels/constraint_graph.h: an island's root is
// its lowest body slot), by one work-item; islands that rested long enough fall asleep.
RB_KERNEL void rb_islands_serial(int nb, int ne, float time_to_sleep, RB_GLOBAL const rb_constraint_edge *edges,
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
