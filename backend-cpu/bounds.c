// update_bounds: world poses and bounding boxes of shapes, world inverse inertia of bodies.
#include <stdlib.h>

#include "cpu_context.h"
#include "kernels/shape_geom.h"

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
    GROW(pseudo_lin_vel)
    GROW(pseudo_ang_vel)
    GROW(color_mask)
    GROW(island_parent)
    GROW(island_sleep_time)
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
    if (!reserve_body_arrays(c, s->body_slots) || !reserve_shape_arrays(c, s->shape_slots))
        return RB_ERR_OUT_OF_MEMORY;

    int nb = s->body_slots;
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int b = 0; b < nb; ++b) {
        if (rb_body_is_dynamic(s, b) && (s->body_flags[b] & RB_BODY_ALIVE)) {
            rb_float4 d = s->body_inv_inertia_diag[b], o = s->body_inv_inertia_offdiag[b];
            rb_mat3 local = rb_mat3_symmetric(rb_f3(d.x, d.y, d.z), rb_f3(o.x, o.y, o.z));
            c->inv_inertia_world[b] = rb_mat3_rotate_tensor(s->body_rot[b], local);
        } else {
            c->inv_inertia_world[b] = rb_mat3_zero();
        }
    }

    int ns = s->shape_slots;
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int i = 0; i < ns; ++i) {
        int b = s->shape_body[i];
        if (b < 0)
            continue;
        // grown by the margin and by how far the body can move this substep (see closing_distance in
        // narrow_phase.c): the broad phase must find the pairs the speculative contacts need
        float margin = p->contact_margin;
        if (s->body_flags[b] & RB_BODY_AWAKE)
            margin += p->dt * (rb_len(rb_xyz(s->body_lin_vel[b])) +
                               rb_len(rb_xyz(s->body_ang_vel[b])) * s->body_local_center[b].w);
        rb_xform body = rb_scene_body_origin(s, b);
        rb_xform local = rb_xform_make(rb_xyz(s->shape_local_pos[i]), s->shape_local_rot[i]);
        rb_xform world = rb_xform_mul(body, local);
        c->shape_world[i] = world;
        if (s->shape_type[i] == RB_GEOM_PLANE) {
            c->plane_world[i] = rb_plane_to_world(world, s->shape_params[i]);
            continue;
        }
        rb_float3 lo, hi;
        rb_geom_aabb(rb_geom_make(s->shape_type[i], world, s->shape_params[i]), margin, &lo, &hi);
        c->aabb_lo[i] = rb_f4_from3(lo, 0.0f);
        c->aabb_hi[i] = rb_f4_from3(hi, 0.0f);
    }
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
    };
    (void)p; // the solver's table says whether sleeping bodies pair
    return rb_broad_phase_find_pairs(c->broad, &in, c->team, &c->pairs, &c->pair_count);
}
