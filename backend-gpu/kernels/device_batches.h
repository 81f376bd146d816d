// build_batches: the constraint graph's edges, waking the sleeping groups that a moving body touches,
// and preparing the constraints. The graph's rules are those of core/kernels/constraint_graph.h, which
// the CPU backend calls too. The colouring between them runs on the host (gpu_pipeline.c
// color_on_host), serially in edge order: it is what makes the GPU's batches, and so its solver sweeps,
// the same as the CPU's, which the cross-check relies on.

// One contact edge per manifold, in manifold order: pair i's manifold (if it has one) is manifold
// moff[i], and its points start at npoints[i] (the narrow phase's scans).
RB_KERNEL void rb_fill_edges(int np, RB_GLOBAL const int *has, RB_GLOBAL const int *moff, RB_GLOBAL const int *npoints,
                            RB_GLOBAL const rb_contact_manifold *m, RB_GLOBAL rb_constraint_edge *edges)
{
    int i = rb_thread_id();
    if (i >= np || !has[i])
        return;
    int j = moff[i];
    edges[j] = rb_contact_edge(m[j].body_a, m[j].body_b, npoints[i], m[j].m.count);
}

RB_KERNEL void rb_mark_sleepers(int ne, RB_GLOBAL const rb_constraint_edge *edges, RB_GLOBAL const uint *flags,
                               RB_GLOBAL const int *sleep_group, RB_GLOBAL uchar *wake_group, RB_GLOBAL int *counters)
{
    int i = rb_thread_id();
    if (i >= ne)
        return;
    int sleeper = rb_edge_wakes(edges[i], flags);
    if (sleeper < 0)
        return;
    // every writer writes the same values: no atomics needed
    wake_group[rb_sleep_group_of(sleep_group, sleeper)] = 1;
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
    if (wake_group[rb_sleep_group_of(sleep_group, b)]) {
        flags[b] = f | RB_BODY_AWAKE;
        params[b].w = 0.0f;
        sleep_group[b] = -1;
    }
}

// Constraint j from edge color_order[j] (backend-cpu/graph_color.c prepare_constraints); a constraint
// that bounces raises the restitution flag (every writer writes 1: no atomics needed).
RB_KERNEL void rb_prepare_constraints(int ne, float slop, RB_GLOBAL const rb_constraint_edge *edges,
                                     RB_GLOBAL const rb_contact_manifold *m, RB_GLOBAL const int *color_order,
                                     RB_GLOBAL const int *first_point, RB_GLOBAL const uint *flags,
                                     RB_GLOBAL const rb_float4 *pos, RB_GLOBAL const rb_float4 *rot,
                                     RB_GLOBAL const rb_float4 *lin_vel, RB_GLOBAL const rb_float4 *ang_vel,
                                     RB_GLOBAL const rb_float4 *inv_diag, RB_GLOBAL const rb_mat3 *inv_inertia_world,
                                     RB_GLOBAL rb_contact_constraint *cons, RB_GLOBAL rb_contact_point *points,
                                     RB_GLOBAL int *counters)
{
    int j = rb_thread_id();
    if (j >= ne)
        return;
    rb_constraint_edge e = edges[color_order[j]];
    rb_contact_manifold mf = m[color_order[j]]; // contact edge i is manifold i
    rb_contact_constraint k;
    k.first_point = first_point[j];
    rb_contact_warm warm[RB_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < mf.m.count; ++i)
        warm[i] = rb_manifold_warm(&m[color_order[j]], i);
    rb_contact_point pts[RB_MAX_MANIFOLD_POINTS];
    rb_manifold man = mf.m;
    rb_contact_material mat;
    mat.friction = mf.friction;
    mat.static_friction = mf.static_friction;
    mat.restitution = mf.restitution;
    rb_prepare_contact_rows(&k, pts, &man, mat, warm, slop, e.body_a, e.body_b, flags, pos, rot, lin_vel, ang_vel,
                            inv_diag, inv_inertia_world);
    cons[j] = k;
    for (int i = 0; i < mf.m.count; ++i)
        points[k.first_point + i] = pts[i];
    if (k.restitution > 0.0f)
        counters[RB_CNT_RESTITUTION] = 1;
}
