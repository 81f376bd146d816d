// update_bounds: world poses and bounding boxes of shapes, world inverse inertia of bodies (per
// element: core/kernels/bounds.h, which the device kernels run too).
#include <stdio.h>
#include <stdlib.h>

#include "cpu_context.h"
#include "kernels/bounds.h"

static int reserve_body_arrays(rb_cpu_ctx *c, int n)
{
    if (n <= c->body_cap)
        return 1;
    int cap = c->body_cap > 0 ? c->body_cap : 256;
    while (cap < n)
        cap *= 2;
    void *p;
#define GROW(field)                                                                                \
    if (!(p = realloc(c->field, (size_t)cap * sizeof *c->field)))                                  \
        return 0;                                                                                  \
    c->field = p;
    GROW(inv_inertia_world)
    GROW(cur_inv_inertia_diag)
    GROW(cur_inv_inertia_offdiag)
    GROW(pseudo_lin_vel)
    GROW(pseudo_ang_vel)
    GROW(color_mask)
    GROW(island_parent)
    GROW(island_sleep_time)
    GROW(rest_low)
    GROW(wake_group)
#undef GROW
    c->body_cap = cap;
    return 1;
}

static int reserve_shape_arrays(rb_cpu_ctx *c, int n)
{
    if (n <= c->shape_cap)
        return 1;
    int cap = c->shape_cap > 0 ? c->shape_cap : 256;
    while (cap < n)
        cap *= 2;
    void *p;
#define GROW(field)                                                                                \
    if (!(p = realloc(c->field, (size_t)cap * sizeof *c->field)))                                  \
        return 0;                                                                                  \
    c->field = p;
    GROW(shape_world)
    GROW(aabb_lo)
    GROW(aabb_hi)
    GROW(plane_world)
#undef GROW
    c->shape_cap = cap;
    return 1;
}

rb_status rb_cpu_update_bounds(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    const rb_scene *s = c->scene;
    c->pose_epoch++; // the application may have moved bodies since the last step
    if (!reserve_body_arrays(c, s->body_slots) || !reserve_shape_arrays(c, s->shape_slots))
        return RB_ERR_OUT_OF_MEMORY;

    int nb = s->body_slots;
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int b = 0; b < nb; ++b) {
        c->inv_inertia_world[b] = rb_world_inv_inertia(s->body_flags[b], s->body_inv_inertia_diag[b],
                                                            s->body_inv_inertia_offdiag[b], s->body_rot[b]);
        if (c->solver->current_inertia) // the soft solver's, which integrate_positions then keeps
            rb_world_inv_inertia_sym(s->body_inv_inertia_diag[b], s->body_inv_inertia_offdiag[b], s->body_rot[b],
                                     &c->cur_inv_inertia_diag[b], &c->cur_inv_inertia_offdiag[b]);
    }

    int ns = s->shape_slots;
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int i = 0; i < ns; ++i)
        rb_shape_update_bounds(i, p->contact_margin, p->dt, s->shape_body, s->shape_type, s->shape_local_pos,
                               s->shape_local_rot, s->shape_params, s->hull_pool, s->body_flags, s->body_pos, s->body_rot,
                               s->body_local_center, s->body_lin_vel, s->body_ang_vel, c->shape_world, c->aabb_lo,
                               c->aabb_hi, c->plane_world);
    return RB_OK;
}

rb_status rb_cpu_find_pairs(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    const rb_scene *s = c->scene;
    rb_broad_input in = {
        .shape_slots = s->shape_slots,
        .shape_body = s->shape_body,
        .shape_type = s->shape_type,
        .aabb_lo = c->aabb_lo,
        .aabb_hi = c->aabb_hi,
        .plane = c->plane_world,
        .shape_filter = s->shape_filter,
        .body_flags = s->body_flags,
        // pe detects contacts of sleeping bodies too (its wake rules and batches need them)
        .include_sleeping = c->solver->pairs_sleeping,
        .max_pairs = p->max_pairs,
    };
    c->error[0] = '\0';
    rb_status status = rb_broad_phase_find_pairs(c->broad, &in, c->team, &c->pairs, &c->pair_count);
    if (status == RB_ERR_CAPACITY)
        snprintf(c->error, sizeof c->error,
                 "more than %d candidate pairs (found %lld before stopping), the world's budget max_pairs; shapes "
                 "overlap far more than a resting scene's do (rb_world_def.max_pairs raises it)",
                 p->max_pairs, (long long)rb_broad_phase_pairs_found(c->broad));
    else if (status == RB_ERR_OUT_OF_MEMORY)
        snprintf(c->error, sizeof c->error, "out of memory for %d shapes' candidate pairs", s->shape_slots);
    if (status == RB_OK && (status = rb_cpu_update_nocollide(c)) != RB_OK)
        snprintf(c->error, sizeof c->error, "out of memory for the keys of joined bodies");
    return status;
}
