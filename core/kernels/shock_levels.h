// Shock-propagation levels over the contact constraints, and the rigid solvers' pass over them: which
// body rests on which, in which order a pass from the ground up visits them, and the pass for one
// carried body. Serial level building (one thread on the CPU, one work-item on a GPU) and a per-body
// step that a parallel loop (or one launch) runs over each level.
//
// A constraint is a support when its normal is within 60° of the vertical: the body below carries the
// one above. Level 1 is every moving body carried by something fixed (static, kinematic, frozen),
// level k + 1 what a level-k body carries; bodies that nothing fixed carries (a free cluster, anything
// in zero gravity) get no level and no shock pass. Each body keeps the list of its supports from lower
// levels, so a level's bodies are independent: each solves its own supports against the already final
// velocities below it.
#ifndef RB_KERNELS_SHOCK_LEVELS_H
#define RB_KERNELS_SHOCK_LEVELS_H

#include "contact_apply.h"

// cos 60°: steeper normals do not carry (a box leaning on a wall is not supported by it)
#define RB_SHOCK_SUPPORT_COS 0.5f
// m: a manifold whose nearest point is further apart carries nothing yet
#define RB_SHOCK_SUPPORT_GAP 0.001f

// The lower body of constraint k if it is a support (-2 for a fixed lower body), else -1; *upper gets
// the carried body and *fixed_a whether A is the lower one.
RB_FN int rb_shock_support_of(const rb_contact_constraint *k, RB_GLOBAL const rb_contact_point *points, rb_float3 up,
                              int *upper, int *fixed_a)
{
    float d = rb_dot(k->normal, up);
    // the normal points from A to B: d > 0 puts B above A
    int lower_is_a = d > RB_SHOCK_SUPPORT_COS;
    if (!lower_is_a && !(d < -RB_SHOCK_SUPPORT_COS))
        return -1;
    // only touching manifolds carry: a speculative contact a gap away would make a body skip the
    // levels between (plates 2 mm thick are all within the contact margin of the bottom one)
    float gap = RB_FLT_MAX;
    for (int i = 0; i < k->count; ++i)
        gap = rb_minf(gap, points[k->first_point + i].separation);
    if (gap > RB_SHOCK_SUPPORT_GAP)
        return -1;
    int lo = lower_is_a ? k->body_a : k->body_b, hi = lower_is_a ? k->body_b : k->body_a;
    float im_lo = lower_is_a ? k->inv_mass_a : k->inv_mass_b, im_hi = lower_is_a ? k->inv_mass_b : k->inv_mass_a;
    if (hi < 0 || im_hi == 0.0f)
        return -1; // nothing to carry
    *upper = hi;
    *fixed_a = lower_is_a;
    return (lo < 0 || im_lo == 0.0f) ? -2 : lo;
}

// Where the levels go: per body `level` (nb), `carry_start` (nb + 1), `order` (nb), `level_start`
// (nb + 2), `support_start` (nb + 1); per constraint `carry` and `supports` (n), and the scratch
// `answer` (2 n: each constraint's support test, asked once, read three times). Level l + 1 is
// order[level_start[l] .. level_start[l + 1]); the supports of order[i] are
// supports[support_start[i] .. support_start[i + 1]), each constraint * 2 + (A is the supporting body).
typedef struct rb_shock_arrays {
    RB_GLOBAL int *level, *carry_start, *carry, *order, *level_start, *support_start, *supports, *answer;
} rb_shock_arrays;

// Constraint j's support test into answer[2 j] (the lower body, as rb_shock_support_of) and
// answer[2 j + 1] (upper * 2 + fixed_a): independent per constraint, so a parallel loop may run it.
RB_FN void rb_shock_answer(int j, RB_GLOBAL const rb_contact_constraint *cons, RB_GLOBAL const rb_contact_point *points,
                           rb_float3 up, RB_GLOBAL int *answer)
{
    rb_contact_constraint k = cons[j];
    int hi = 0, fa = 0;
    answer[2 * j] = rb_shock_support_of(&k, points, up, &hi, &fa);
    answer[2 * j + 1] = hi * 2 + fa;
}

// The levels from the n constraints' answers (a.answer, rb_shock_answer) over nb body slots; returns
// the number of levels (0: none) and the number of levelled bodies in *bodies. Deterministic: depends
// on the constraint order only.
RB_FN int rb_shock_levels_from_answers(int nb, int n, rb_shock_arrays a, int *bodies)
{
    RB_GLOBAL int *level = a.level, *cs = a.carry_start, *queue = a.order;
    *bodies = 0;
    // what each body carries (CSR over lower bodies), and level 1
    for (int b = 0; b <= nb; ++b)
        cs[b] = 0;
    for (int b = 0; b < nb; ++b)
        level[b] = -1;
    RB_GLOBAL int *ans = a.answer; // (lower, upper * 2 + fixed_a) per constraint
    int qn = 0;
    for (int j = 0; j < n; ++j) {
        int lo = ans[2 * j], hi = ans[2 * j + 1] >> 1;
        if (lo >= 0)
            cs[lo + 1]++;
        else if (lo == -2 && level[hi] < 0) {
            level[hi] = 1;
            queue[qn++] = hi;
        }
    }
    for (int b = 0; b < nb; ++b)
        cs[b + 1] += cs[b];
    RB_GLOBAL int *fill = a.support_start; // scratch for the fill
    for (int b = 0; b < nb; ++b)
        fill[b] = cs[b];
    for (int j = 0; j < n; ++j) {
        int lo = ans[2 * j], hi = ans[2 * j + 1] >> 1;
        if (lo >= 0)
            a.carry[fill[lo]++] = hi;
    }
    // breadth first from level 1: the queue ends in level order
    for (int i = 0; i < qn; ++i) {
        int b = queue[i];
        for (int e = cs[b]; e < cs[b + 1]; ++e) {
            int u = a.carry[e];
            if (level[u] < 0) {
                level[u] = level[b] + 1;
                queue[qn++] = u;
            }
        }
    }
    if (qn == 0)
        return 0;
    int levels = level[queue[qn - 1]];
    for (int l = 0; l <= levels + 1; ++l)
        a.level_start[l] = qn;
    for (int i = qn - 1; i >= 0; --i)
        a.level_start[level[queue[i]] - 1] = i;
    // supports of each levelled body from strictly lower levels (CSR in queue order); fixed supports
    // are lower than everything
    RB_GLOBAL int *pos = cs; // reused: queue position of each body
    for (int i = 0; i < qn; ++i)
        pos[queue[i]] = i;
    RB_GLOBAL int *ss = a.support_start;
    for (int i = 0; i <= qn; ++i)
        ss[i] = 0;
    for (int j = 0; j < n; ++j) {
        int lo = ans[2 * j], hi = ans[2 * j + 1] >> 1;
        if (lo == -1 || level[hi] < 0)
            continue;
        if (lo == -2 || (level[lo] >= 0 && level[lo] < level[hi]))
            ss[pos[hi] + 1]++;
    }
    for (int i = 0; i < qn; ++i)
        ss[i + 1] += ss[i];
    for (int j = 0; j < n; ++j) {
        int lo = ans[2 * j], hi = ans[2 * j + 1] >> 1, fa = ans[2 * j + 1] & 1;
        if (lo == -1 || level[hi] < 0)
            continue;
        if (lo == -2 || (level[lo] >= 0 && level[lo] < level[hi]))
            a.supports[ss[pos[hi]]++] = j * 2 + fa;
    }
    for (int i = qn; i > 0; --i)
        ss[i] = ss[i - 1];
    ss[0] = 0;
    *bodies = qn;
    return levels;
}

// Sweeps of the rigid shock pass over a carried body's supports: one body against fixed ones converges
// in a few, and one leaves a thin plate rocking on its corners. The sweeps end early once no row
// changes a velocity by more than RB_SHOCK_CONVERGED (a body already at rest on its supports: one).
#define RB_SHOCK_SWEEPS 8
#define RB_SHOCK_CONVERGED 1e-5f
// Supports swept together (a body with more is taken in groups of this many).
#define RB_SHOCK_GROUP 8

// The rigid solvers' shock pass (rb_contact_solve_shock_rigid) for the levelled body order[i]: its
// supports, swept together so that it settles on all of them rather than on the last. `position`:
// the split-impulse pass on the pseudo velocities (lin, ang are then those). Only a body that takes
// impulses (rb_takes_impulses: not frozen) is written.
RB_FN void rb_shock_body(int i, int position, rb_solve_settings st, RB_GLOBAL const int *support_start,
                         RB_GLOBAL const int *supports, RB_GLOBAL const rb_contact_constraint *cons,
                         RB_GLOBAL const rb_contact_point *points, RB_GLOBAL const unsigned int *flags,
                         RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang)
{
    int first = support_start[i], end = support_start[i + 1];
    for (int g = first; g < end; g += RB_SHOCK_GROUP) {
        int ge = g + RB_SHOCK_GROUP < end ? g + RB_SHOCK_GROUP : end;
        rb_shock_accum acc[RB_SHOCK_GROUP];
        for (int e = 0; e < RB_SHOCK_GROUP; ++e)
            for (int p = 0; p < RB_MAX_MANIFOLD_POINTS; ++p)
                acc[e].n[p] = acc[e].t1[p] = acc[e].t2[p] = 0.0f;
        for (int e = 0; e < RB_SHOCK_GROUP; ++e)
            acc[e].sweeps = acc[e].stick = 0;
        for (int sweep = 0; sweep < RB_SHOCK_SWEEPS; ++sweep) {
            float change = 0.0f;
            for (int e = g; e < ge; ++e) {
                int fixed_a = supports[e] & 1;
                rb_contact_constraint k = cons[supports[e] >> 1];
                rb_contact_point pts[RB_MAX_MANIFOLD_POINTS];
                for (int p = 0; p < k.count; ++p)
                    pts[p] = points[k.first_point + p];
                int m = fixed_a ? k.body_b : k.body_a; // the carried body (it has mass)
                if (!rb_takes_impulses(flags, m))
                    return;
                rb_float3 va = rb_load_vel(lin, k.body_a), wa = rb_load_vel(ang, k.body_a);
                rb_float3 vb = rb_load_vel(lin, k.body_b), wb = rb_load_vel(ang, k.body_b);
                change = rb_maxf(change, rb_contact_solve_shock_rigid(&k, pts, st, position, fixed_a, &acc[e - g], &va,
                                                                      &wa, &vb, &wb));
                lin[m] = rb_f4_from3(fixed_a ? vb : va, 0.0f);
                ang[m] = rb_f4_from3(fixed_a ? wb : wa, 0.0f);
            }
            if (change < RB_SHOCK_CONVERGED)
                break;
        }
    }
}

#endif
