// Shock propagation of the batched and split solvers: each constraint's support test (a work-item per
// constraint), the levels from them (one work-item, as the colouring) and the pass over one level (a
// work-item per levelled body). The rules, the build and the per-body step
// are core/kernels/shock_levels.h, as on the CPU (backend-cpu/shock_levels.c, contact_solver_batched.c).
#include "shock_levels.h"

RB_KERNEL void rb_shock_answers(int n, rb_float4 up, RB_GLOBAL const rb_contact_constraint *cons,
                                RB_GLOBAL const rb_contact_point *points, RB_GLOBAL int *answer)
{
    int j = rb_thread_id();
    if (j < n)
        rb_shock_answer(j, cons, points, rb_xyz(up), answer);
}

// The levels from the answers of rb_shock_answers.
RB_KERNEL void rb_shock_levels(int nb, int n, RB_GLOBAL int *level, RB_GLOBAL int *carry_start,
                               RB_GLOBAL int *carry, RB_GLOBAL int *order, RB_GLOBAL int *level_start,
                               RB_GLOBAL int *support_start, RB_GLOBAL int *supports, RB_GLOBAL int *answer,
                               RB_GLOBAL int *counters)
{
    if (rb_thread_id() != 0)
        return;
    rb_shock_arrays a;
    a.level = level;
    a.carry_start = carry_start;
    a.carry = carry;
    a.order = order;
    a.level_start = level_start;
    a.support_start = support_start;
    a.supports = supports;
    a.answer = answer;
    int bodies;
    counters[RB_CNT_SHOCK_LEVELS] = rb_shock_levels_from_answers(nb, n, a, &bodies);
}

// The levelled bodies order[lo .. lo + n) (one level), each against its supports.
RB_KERNEL void rb_shock_level(int lo, int n, int position, rb_solve_args sa, RB_GLOBAL const int *support_start,
                              RB_GLOBAL const int *supports, RB_GLOBAL const rb_contact_constraint *cons,
                              RB_GLOBAL const rb_contact_point *points, RB_GLOBAL const uint *flags,
                              RB_GLOBAL rb_float4 *lin, RB_GLOBAL rb_float4 *ang)
{
    int i = rb_thread_id();
    if (i >= n)
        return;
    rb_solve_settings st;
    st.inv_h = sa.inv_h;
    st.bias_factor = sa.bias_factor;
    st.slop = sa.slop;
    st.max_push = sa.max_push;
    rb_shock_body(lo + i, position, st, support_start, supports, cons, points, flags, lin, ang);
}
