// solve_contacts: the `batched` solver (projected Gauss-Seidel, one launch per colour; a colour holds
// no dynamic body twice, so its constraints run in parallel without races) and the `split` solver
// (projected Jacobi with mass splitting: a launch over the blocks, then a launch over the bodies).
// Same per-constraint code as backend-cpu/contact_solver_batched.c and contact_solver_split.c.

typedef struct rb_solve_args {
    float inv_h, bias_factor, slop, max_push, restitution_threshold;
} rb_solve_args;

RB_FN rb_float3 rb_load_vel(RB_GLOBAL const rb_float4 *v, int b)
{
    return b >= 0 ? rb_xyz(v[b]) : rb_f3(0.0f, 0.0f, 0.0f);
}

// Runs `op` on constraint i against the velocities (va..wb), in place; updates its points.
RB_FN void rb_apply_op(int op, RB_GLOBAL const rb_contact_constraint *cons, RB_GLOBAL rb_contact_point *points, int i,
                       rb_solve_args sa, rb_float3 *va, rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    rb_contact_constraint k = cons[i];
    rb_contact_point pts[RB_MAX_MANIFOLD_POINTS];
    for (int p = 0; p < k.count; ++p)
        pts[p] = points[k.first_point + p];
    rb_solve_settings st;
    st.inv_h = sa.inv_h;
    st.bias_factor = sa.bias_factor;
    st.slop = sa.slop;
    st.max_push = sa.max_push;
    if (op == RB_OP_MEASURE)
        rb_contact_measure(&k, pts, *va, *wa, *vb, *wb);
    else if (op == RB_OP_WARM_START)
        rb_contact_warm_start(&k, pts, va, wa, vb, wb);
    else if (op == RB_OP_SOLVE)
        rb_contact_solve(&k, pts, st, va, wa, vb, wb);
    else if (op == RB_OP_RESTITUTION)
        rb_contact_restitution(&k, pts, sa.restitution_threshold, st.slop, va, wa, vb, wb);
    else
        rb_contact_solve_position(&k, pts, st, va, wa, vb, wb);
    if (op == RB_OP_WARM_START)
        return; // reads the points only
    for (int p = 0; p < k.count; ++p)
        points[k.first_point + p] = pts[p];
}

RB_FN void rb_solve_one(int op, int i, rb_solve_args sa, RB_GLOBAL const rb_contact_constraint *cons,
                        RB_GLOBAL rb_contact_point *points, RB_GLOBAL const uint *flags, RB_GLOBAL rb_float4 *lin,
                        RB_GLOBAL rb_float4 *ang)
{
    int a = cons[i].body_a, b = cons[i].body_b;
    rb_float3 va = rb_load_vel(lin, a), wa = rb_load_vel(ang, a), vb = rb_load_vel(lin, b), wb = rb_load_vel(ang, b);
    rb_apply_op(op, cons, points, i, sa, &va, &wa, &vb, &wb);
    if (op == RB_OP_MEASURE)
        return;
    // only dynamic bodies take impulses; kinematic, static and frozen ones are read-only
    if (rb_takes_impulses(flags, a)) {
        lin[a] = rb_f4_from3(va, 0.0f);
        ang[a] = rb_f4_from3(wa, 0.0f);
    }
    if (rb_takes_impulses(flags, b)) {
        lin[b] = rb_f4_from3(vb, 0.0f);
        ang[b] = rb_f4_from3(wb, 0.0f);
    }
}

// Constraints [lo, lo + n) of one colour, in parallel. The position pass works on the pseudo velocities.
RB_KERNEL void rb_solve_color(int lo, int n, int op, rb_solve_args sa, RB_GLOBAL const rb_contact_constraint *cons,
                             RB_GLOBAL rb_contact_point *points, RB_GLOBAL const uint *flags, RB_GLOBAL rb_float4 *lin,
                             RB_GLOBAL rb_float4 *ang)
{
    int i = rb_thread_id();
    if (i < n)
        rb_solve_one(op, lo + i, sa, cons, points, flags, lin, ang);
}

// The overflow batch (constraints that found all colours taken), in order, by one work-item.
RB_KERNEL void rb_solve_serial(int lo, int n, int op, rb_solve_args sa, RB_GLOBAL const rb_contact_constraint *cons,
                              RB_GLOBAL rb_contact_point *points, RB_GLOBAL const uint *flags, RB_GLOBAL rb_float4 *lin,
                              RB_GLOBAL rb_float4 *ang)
{
    if (rb_thread_id() != 0)
        return;
    for (int i = 0; i < n; ++i)
        rb_solve_one(op, lo + i, sa, cons, points, flags, lin, ang);
}

// Impulses back to the manifolds: contact read-back and next step's warm start.
RB_KERNEL void rb_store_impulses(int nm, float inv_h, float slop, RB_GLOBAL const rb_contact_constraint *cons,
                                RB_GLOBAL const rb_contact_point *points, RB_GLOBAL const int *color_order,
                                RB_GLOBAL rb_contact_manifold *m)
{
    int j = rb_thread_id();
    if (j >= nm)
        return;
    int dst = color_order[j];
    int first = cons[j].first_point;
    for (int p = 0; p < cons[j].count; ++p) {
        rb_contact_point pt = points[first + p];
        m[dst].normal_impulse[p] = pt.n.impulse;
        m[dst].friction_impulse[p] = rb_contact_friction_impulse(&pt);
        m[dst].carried_impact[p] = rb_contact_impact_speed(&pt, inv_h, slop);
    }
}

// ---- split solver

// CSR body -> blocks in constraint order over the edges (one work-item; body_start has nb + 1 entries):
// core/kernels/constraint_graph.h, as on the CPU.
RB_KERNEL void rb_split_lists(int ne, int nb, RB_GLOBAL const rb_constraint_edge *edges, RB_GLOBAL const int *color_order,
                             RB_GLOBAL const uint *flags, RB_GLOBAL int *body_start, RB_GLOBAL int *list)
{
    if (rb_thread_id() == 0)
        rb_edge_body_lists(ne, edges, color_order, nb, flags, body_start, list);
}

RB_KERNEL void rb_split_prepare_blocks(int nm, RB_GLOBAL const rb_contact_constraint *cons, RB_GLOBAL rb_contact_point *points,
                               RB_GLOBAL const uint *flags, RB_GLOBAL const int *body_start)
{
    int j = rb_thread_id();
    if (j >= nm)
        return;
    rb_contact_constraint k = cons[j];
    float na = rb_split_share(body_start, flags, k.body_a), nb = rb_split_share(body_start, flags, k.body_b);
    rb_contact_point pts[RB_MAX_MANIFOLD_POINTS];
    for (int p = 0; p < k.count; ++p)
        pts[p] = points[k.first_point + p];
    rb_split_prepare(&k, pts, na, nb);
    for (int p = 0; p < k.count; ++p)
        points[k.first_point + p] = pts[p];
}

// Every block against the sweep's starting velocities; its velocity changes go to delta[4 j ..].
RB_KERNEL void rb_split_blocks(int nm, int op, rb_solve_args sa, RB_GLOBAL const rb_contact_constraint *cons,
                              RB_GLOBAL rb_contact_point *points, RB_GLOBAL const rb_float4 *lin,
                              RB_GLOBAL const rb_float4 *ang, RB_GLOBAL rb_float4 *delta)
{
    int j = rb_thread_id();
    if (j >= nm)
        return;
    int a = cons[j].body_a, b = cons[j].body_b;
    rb_float3 va0 = rb_load_vel(lin, a), wa0 = rb_load_vel(ang, a), vb0 = rb_load_vel(lin, b), wb0 = rb_load_vel(ang, b);
    rb_float3 va = va0, wa = wa0, vb = vb0, wb = wb0;
    rb_apply_op(op, cons, points, j, sa, &va, &wa, &vb, &wb);
    delta[4 * j + 0] = rb_f4_from3(rb_sub(va, va0), 0.0f);
    delta[4 * j + 1] = rb_f4_from3(rb_sub(wa, wa0), 0.0f);
    delta[4 * j + 2] = rb_f4_from3(rb_sub(vb, vb0), 0.0f);
    delta[4 * j + 3] = rb_f4_from3(rb_sub(wb, wb0), 0.0f);
}

// Every body adds its blocks' changes in block order.
RB_KERNEL void rb_split_gather(int nb, RB_GLOBAL const int *body_start, RB_GLOBAL const int *list,
                              RB_GLOBAL const rb_float4 *delta, RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang)
{
    int b = rb_thread_id();
    if (b >= nb)
        return;
    int lo = body_start[b], hi = body_start[b + 1];
    if (lo == hi)
        return;
    rb_float3 v = rb_xyz(lin[b]), w = rb_xyz(ang[b]);
    for (int e = lo; e < hi; ++e) {
        int j = list[e] >> 1, side_b = list[e] & 1;
        v = rb_add(v, rb_xyz(delta[4 * j + (side_b ? 2 : 0)]));
        w = rb_add(w, rb_xyz(delta[4 * j + (side_b ? 3 : 1)]));
    }
    lin[b] = rb_f4_from3(v, 0.0f);
    ang[b] = rb_f4_from3(w, 0.0f);
}
