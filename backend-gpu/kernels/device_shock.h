// Shock propagation of the batched and split solvers: each constraint's support test (a work-item per
// constraint) and the pass over one level (a work-item per levelled body). The levels between them are
// built on the host (gpu_pipeline.c shock_levels_on_host), as the colouring is. The rules, the build
// and the per-body step are core/kernels/shock_levels.h, as on the CPU (backend-cpu/shock_levels.c,
// contact_solver_batched.c).
#include "shock_levels.h"

RB_KERNEL void rb_shock_answers(int n, rb_float4 up, RB_GLOBAL const rb_contact_constraint *cons,
                                RB_GLOBAL const rb_contact_point *points, RB_GLOBAL int *answer)
{
    int j = rb_thread_id();
    if (j < n)
        rb_shock_answer(j, cons, points, rb_xyz(up), answer);
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
