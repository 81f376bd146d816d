// solve_contacts: the `batched` solver (projected Gauss-Seidel, one launch per colour; a colour holds
// no dynamic body twice, so its constraints run in parallel without races) and the `split` solver
// (projected Jacobi with mass splitting: a launch over the blocks, then a launch over the bodies).
// The per-constraint glue (load, apply, store; the impulses' store) is core/kernels/contact_apply.h,
// as on the CPU (backend-cpu/contact_solver_batched.c).

typedef struct rb_solve_args {
    float inv_h, bias_factor, slop, max_push, restitution_threshold;
} rb_solve_args;

RB_FN rb_solve_settings rb_solve_settings_of(rb_solve_args sa)
{
    rb_solve_settings st;
    st.inv_h = sa.inv_h;
    st.bias_factor = sa.bias_factor;
    st.slop = sa.slop;
    st.max_push = sa.max_push;
    return st;
}

// The kernels work on a private copy of constraint i and its points (core/kernels/ functions take
// private pointers), and write the points back after any operation but the warm start, which only
// reads them.
RB_FN rb_contact_constraint rb_load_constraint(RB_GLOBAL const rb_contact_constraint *cons,
                                               RB_GLOBAL const rb_contact_point *points, int i, rb_contact_point *pts)
{
    rb_contact_constraint k = cons[i];
    for (int p = 0; p < k.count; ++p)
        pts[p] = points[k.first_point + p];
    return k;
}
RB_FN void rb_store_points(int op, const rb_contact_constraint *k, const rb_contact_point *pts,
                           RB_GLOBAL rb_contact_point *points)
{
    if (op == RB_OP_WARM_START)
        return;
    for (int p = 0; p < k->count; ++p)
        points[k->first_point + p] = pts[p];
}

// rb_contact_apply on constraint i against the velocities (va..wb), in place.
RB_FN void rb_apply_op(int op, RB_GLOBAL const rb_contact_constraint *cons, RB_GLOBAL rb_contact_point *points, int i,
                       rb_solve_args sa, rb_float3 *va, rb_float3 *wa, rb_float3 *vb, rb_float3 *wb)
{
    rb_contact_point pts[RB_MAX_MANIFOLD_POINTS];
    rb_contact_constraint k = rb_load_constraint(cons, points, i, pts);
    rb_contact_apply(op, &k, pts, rb_solve_settings_of(sa), sa.restitution_threshold, va, wa, vb, wb);
    rb_store_points(op, &k, pts, points);
}

// Load, apply, store (rb_contact_apply_to_bodies) for constraint i.
RB_FN void rb_solve_one(int op, int i, rb_solve_args sa, RB_GLOBAL const rb_contact_constraint *cons,
                        RB_GLOBAL rb_contact_point *points, RB_GLOBAL const uint *flags, RB_GLOBAL rb_float4 *lin,
                        RB_GLOBAL rb_float4 *ang)
{
    rb_contact_point pts[RB_MAX_MANIFOLD_POINTS];
    rb_contact_constraint k = rb_load_constraint(cons, points, i, pts);
    rb_contact_apply_to_bodies(op, &k, pts, rb_solve_settings_of(sa), sa.restitution_threshold, flags, lin, ang);
    rb_store_points(op, &k, pts, points);
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
    rb_contact_store_impulses(&m[color_order[j]], &points[cons[j].first_point], cons[j].count, inv_h, slop);
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
