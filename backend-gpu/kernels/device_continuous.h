// solve_continuous: the bullets' sweeps after the step (core/kernels/time_of_impact.h), one work-item per
// body, as backend-cpu/continuous.c runs them: a fast bullet's shapes against every static and kinematic
// shape, in slot order, from the poses rb_integrate_positions saved at the first substep. A work-item
// writes only its own bullet's pose, and reads only the poses of static and kinematic bodies (never a
// bullet's), so the work-items are independent.
#include "time_of_impact.h"

RB_KERNEL void rb_bullet_sweeps(int nb, int ns, float target, float tolerance, RB_GLOBAL const uint *flags,
                               RB_GLOBAL rb_float4 *pos, RB_GLOBAL rb_float4 *rot, RB_GLOBAL const rb_float4 *start_pos,
                               RB_GLOBAL const rb_float4 *start_rot, RB_GLOBAL const rb_float4 *local_center,
                               RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                               RB_GLOBAL const rb_float4 *shape_local_pos, RB_GLOBAL const rb_float4 *shape_local_rot,
                               RB_GLOBAL const rb_float4 *shape_params, RB_GLOBAL const rb_float4 *hull_pool,
                               RB_GLOBAL const uint *filter)
{
    int b = rb_thread_id();
    if (b < nb)
        rb_bullet_sweep(b, ns, target, tolerance, flags, pos, rot, start_pos, start_rot, local_center, shape_body,
                        shape_type, shape_local_pos, shape_local_rot, shape_params, hull_pool, filter);
}
