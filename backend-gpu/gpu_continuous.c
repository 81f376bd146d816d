// solve_continuous on the device (kernels/device_continuous.h): one launch over the bodies, after the
// step's last kernel. The bullets are found on the device (each work-item tests its body's flags), so
// nothing is read back, and nothing is allocated: the pass uses the scene's buffers and the poses
// rb_integrate_positions saved at the first substep (start_pos, start_rot).
#include <string.h>

#include "gpu_context.h"
#include "kernels/time_of_impact.h"

rb_status rb_gpu_solve_continuous(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    const rb_scene *s = c->scene;
    int nb = s->body_slots, ns = s->shape_slots;
    // the host's flags tell whether there is a bullet at all (they change on the device only by sleeping,
    // waking and freezing, which the sweep checks there)
    int any = 0;
    for (int b = 0; b < nb && !any; ++b)
        any = (s->body_flags[b] & RB_BODY_BULLET) && rb_is_dynamic_flags(s->body_flags[b]);
    if (!any || !c->start_pos.mem || !c->start_rot.mem)
        return RB_OK;
    float target = rb_sweep_target(p->linear_slop), tolerance = rb_sweep_tolerance(target);
    rb_gpu_arg args[RB_GPU_MAX_ARGS];
    int n = 0;
#define ARG(v)                                                                                                        \
    do {                                                                                                              \
        args[n].size = sizeof(v);                                                                                     \
        memcpy(args[n].value, &(v), sizeof(v));                                                                       \
        ++n;                                                                                                          \
    } while (0)
    ARG(nb);
    ARG(ns);
    ARG(target);
    ARG(tolerance);
    ARG(c->flags.mem);
    ARG(c->pos.mem);
    ARG(c->rot.mem);
    ARG(c->start_pos.mem);
    ARG(c->start_rot.mem);
    ARG(c->local_center.mem);
    ARG(c->shape_body.mem);
    ARG(c->shape_type.mem);
    ARG(c->shape_lpos.mem);
    ARG(c->shape_lrot.mem);
    ARG(c->shape_params.mem);
    ARG(c->hull_pool.mem);
    ARG(c->filter.mem);
#undef ARG
    return c->dev->launch(c, K_BULLET_SWEEPS, (size_t)nb, n, args, "solve_continuous");
}
