// Shock-propagation levels over the constraint graph (soft, batched and split solvers): which body
// rests on which, and in which order a pass from the ground up visits them. The rules and the build
// are core/kernels/shock_levels.h, shared with the GPU backend; here each constraint's support test
// runs in a parallel loop, the rest of the build (breadth first) serially. The constraints are one per edge
// (in colour order), all contacts today; a joint edge will answer the support test by its own rule.
#include "cpu_context.h"
#include "kernels/shock_levels.h"

static int grow_int(int **a, int *cap, int n) { return rb_cpu_reserve((void **)a, cap, n, sizeof **a); }

rb_status rb_cpu_build_shock_levels(rb_cpu_ctx *c, rb_float3 gravity)
{
    int nb = c->scene->body_slots, n = c->edge_count;
    c->shock_levels = 0;
    c->shock_bodies = 0;
    float g = rb_len(gravity);
    if (g < 1e-6f || n == 0)
        return RB_OK;
    if (!grow_int(&c->shock_level, &c->shock_level_cap, nb) || !grow_int(&c->shock_carry_start, &c->shock_carry_start_cap, nb + 1) ||
        !grow_int(&c->shock_carry, &c->shock_carry_cap, n) || !grow_int(&c->shock_order, &c->shock_order_cap, nb) ||
        !grow_int(&c->shock_level_start, &c->shock_level_start_cap, nb + 2) ||
        !grow_int(&c->shock_support_start, &c->shock_support_start_cap, nb + 1) ||
        !grow_int(&c->shock_supports, &c->shock_supports_cap, n) || !grow_int(&c->shock_edge, &c->shock_edge_cap, 2 * n))
        return RB_ERR_OUT_OF_MEMORY;
    rb_shock_arrays a = {c->shock_level, c->shock_carry_start, c->shock_carry, c->shock_order, c->shock_level_start,
                         c->shock_support_start, c->shock_supports, c->shock_edge};
    rb_float3 up = rb_scale(gravity, -1.0f / g);
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int j = 0; j < n; ++j)
        rb_shock_answer(j, c->constraints, c->points, up, c->shock_edge);
    c->shock_levels = rb_shock_levels_from_answers(nb, n, a, &c->shock_bodies);
    return RB_OK;
}
