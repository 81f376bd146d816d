// build_batches: wake the sleeping groups that a moving body touches, colour the constraints and
// prepare them. The colouring is the greedy one of backend-cpu/graph_color.c, in manifold order, run
// by one work-item: it is what makes the GPU's batches, and so its solver sweeps, the same as the
// CPU's, which the cross-check relies on.
#define RB_MAX_COLORS 64

RB_KERNEL void rb_mark_sleepers(int nm, RB_GLOBAL const rb_contact_manifold *m, RB_GLOBAL const uint *flags,
                               RB_GLOBAL const int *sleep_group, RB_GLOBAL uchar *wake_group, RB_GLOBAL int *counters)
{
    int i = rb_thread_id();
    if (i >= nm)
        return;
    int a = m[i].body_a, b = m[i].body_b;
    uint fa = flags[a], fb = flags[b];
    int sleeper = -1;
    if ((fa & RB_BODY_AWAKE) && !(fb & RB_BODY_AWAKE) && rb_is_dynamic_flags(fb))
        sleeper = b;
    else if ((fb & RB_BODY_AWAKE) && !(fa & RB_BODY_AWAKE) && rb_is_dynamic_flags(fa))
        sleeper = a;
    if (sleeper < 0)
        return;
    int group = sleep_group[sleeper] >= 0 ? sleep_group[sleeper] : sleeper;
    // every writer writes the same values: no atomics needed
    wake_group[group] = 1;
    counters[RB_CNT_WAKE] = 1;
}

RB_KERNEL void rb_wake_groups(int nb, RB_GLOBAL uint *flags, RB_GLOBAL rb_float4 *params, RB_GLOBAL int *sleep_group,
                             RB_GLOBAL const uchar *wake_group)
{
    int b = rb_thread_id();
    if (b >= nb)
        return;
    uint f = flags[b];
    if (!(f & RB_BODY_ALIVE) || (f & RB_BODY_AWAKE) || (f & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T ||
        (f & RB_BODY_FROZEN))
        return;
    int group = sleep_group[b] >= 0 ? sleep_group[b] : b;
    if (wake_group[group]) {
        flags[b] = f | RB_BODY_AWAKE;
        params[b].w = 0.0f;
        sleep_group[b] = -1;
    }
}

// One work-item: colours (color_mask cleared beforehand), the constraint order, each constraint's
// first point, colour starts, colour count and whether any manifold bounces.
RB_KERNEL void rb_color_serial(int nm, RB_GLOBAL const rb_contact_manifold *m, RB_GLOBAL const uint *flags,
                              RB_GLOBAL rb_u64 *color_mask, RB_GLOBAL int *constraint_color, RB_GLOBAL int *color_order,
                              RB_GLOBAL int *color_start, RB_GLOBAL int *first_point, RB_GLOBAL int *counters)
{
    if (rb_thread_id() != 0)
        return;
    int count[RB_MAX_COLORS + 1];
    for (int k = 0; k <= RB_MAX_COLORS; ++k)
        count[k] = 0;
    int used = 0, bounce = 0;
    for (int i = 0; i < nm; ++i) {
        int a = m[i].body_a, b = m[i].body_b;
        int da = rb_is_dynamic_flags(flags[a]), db = rb_is_dynamic_flags(flags[b]);
        rb_u64 taken = (da ? color_mask[a] : (rb_u64)0) | (db ? color_mask[b] : (rb_u64)0);
        int color = RB_MAX_COLORS;
        if (~taken) {
            rb_u64 free_bits = ~taken;
            color = rb_lowest_bit64(free_bits); // lowest free colour
            rb_u64 bit = (rb_u64)1 << color;
            if (da)
                color_mask[a] |= bit;
            if (db)
                color_mask[b] |= bit;
            used = rb_maxi(used, color + 1);
        }
        constraint_color[i] = color;
        count[color]++;
        bounce |= m[i].restitution > 0.0f;
    }
    int start = 0;
    for (int k = 0; k <= RB_MAX_COLORS; ++k) {
        color_start[k] = start;
        start += count[k];
        count[k] = color_start[k]; // fill position
    }
    color_start[RB_MAX_COLORS + 1] = start;
    for (int i = 0; i < nm; ++i)
        color_order[count[constraint_color[i]]++] = i;
    int first = 0;
    for (int j = 0; j < nm; ++j) {
        first_point[j] = first;
        first += m[color_order[j]].m.count;
    }
    counters[RB_CNT_COLORS] = used;
    counters[RB_CNT_RESTITUTION] = bounce;
}

// A body as the solver sees it: static bodies have no velocity, only dynamic ones have mass.
RB_FN rb_solver_body rb_device_solver_body(int b, int is_static, int dynamic, RB_GLOBAL const rb_float4 *pos,
                                           RB_GLOBAL const rb_float4 *rot, RB_GLOBAL const rb_float4 *lin_vel,
                                           RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL const rb_float4 *inv_diag,
                                           RB_GLOBAL const rb_mat3 *inv_inertia_world)
{
    rb_solver_body r;
    rb_float3 zero = rb_f3(0.0f, 0.0f, 0.0f);
    r.p = rb_xyz(pos[b]);
    r.q = rot[b];
    r.v = is_static ? zero : rb_xyz(lin_vel[b]);
    r.w = is_static ? zero : rb_xyz(ang_vel[b]);
    r.inv_mass = dynamic ? inv_diag[b].w : 0.0f;
    r.inv_inertia = inv_inertia_world[b];
    r.is_static = is_static;
    return r;
}

// Constraint j from manifold color_order[j] (backend-cpu/graph_color.c prepare_constraints).
RB_KERNEL void rb_prepare_constraints(int nm, float slop, RB_GLOBAL const rb_contact_manifold *m,
                                     RB_GLOBAL const int *color_order, RB_GLOBAL const int *first_point,
                                     RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *pos, RB_GLOBAL const rb_float4 *rot,
                                     RB_GLOBAL const rb_float4 *lin_vel, RB_GLOBAL const rb_float4 *ang_vel,
                                     RB_GLOBAL const rb_float4 *inv_diag, RB_GLOBAL const rb_mat3 *inv_inertia_world,
                                     RB_GLOBAL rb_contact_constraint *cons, RB_GLOBAL rb_contact_point *points)
{
    int j = rb_thread_id();
    if (j >= nm)
        return;
    rb_contact_manifold mf = m[color_order[j]];
    int a = mf.body_a, b = mf.body_b;
    int dyn_a = rb_is_dynamic_flags(flags[a]), dyn_b = rb_is_dynamic_flags(flags[b]);
    rb_contact_constraint k;
    k.first_point = first_point[j];
    k.body_a = (flags[a] & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T ? -1 : a;
    k.body_b = (flags[b] & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T ? -1 : b;
    rb_contact_warm warm[RB_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < mf.m.count; ++i) {
        warm[i].friction = mf.friction_impulse[i];
        warm[i].normal = mf.normal_impulse[i];
        warm[i].carried_impact = mf.carried_impact[i];
    }
    rb_solver_body A = rb_device_solver_body(a, k.body_a < 0, dyn_a, pos, rot, lin_vel, ang_vel, inv_diag, inv_inertia_world);
    rb_solver_body B = rb_device_solver_body(b, k.body_b < 0, dyn_b, pos, rot, lin_vel, ang_vel, inv_diag, inv_inertia_world);
    rb_contact_point pts[RB_MAX_MANIFOLD_POINTS];
    rb_manifold man = mf.m;
    rb_contact_material mat;
    mat.friction = mf.friction;
    mat.static_friction = mf.static_friction;
    mat.restitution = mf.restitution;
    rb_contact_prepare(&k, pts, &man, mat, slop, warm, &A, &B);
    cons[j] = k;
    for (int i = 0; i < mf.m.count; ++i)
        points[k.first_point + i] = pts[i];
}
