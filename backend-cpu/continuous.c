// solve_continuous: after the step's last substep, each fast bullet's motion over the step is swept
// against the static and kinematic shapes, and a bullet that would have passed into one goes back to its
// time of impact (per bullet: core/kernels/time_of_impact.h, which the device kernel runs too).
//
// The poses at the start of the step are the ones integrate_positions saved at the first substep, before
// any body moved (step_start_pos, step_start_rot). Bullets are independent of each other (they are swept
// against bodies that do not move in this pass), so the loop over them is parallel and its result does
// not depend on the thread count: each bullet tries its pairs in one order (its shapes, then the targets
// in slot order) and keeps the earliest time.
//
// The candidates are found by brute force over the targets' swept boxes, computed once per call: a
// bullet costs one box test per static or kinematic finite shape (planes are always tried); 1000
// bullets against 1000 static boxes took 2.8 ms here (docs/solver.md, "Continuous collision"). This
// pass never fails: without memory for its lists it runs the device kernel's loop (rb_bullet_sweep,
// which scans every shape slot for the bullet's shapes and the targets), with the same result, so the
// promise that a failed step changes nothing is not at stake after the bodies have moved.
#include <stdlib.h>

#include "continuous.h"
#include "kernels/time_of_impact.h"

typedef struct target_list {
    int count;
    int *shape;         // target shape slots, ascending
    rb_float4 *lo, *hi; // their boxes over the step (planes: unused)
} target_list;

typedef struct bullet_lists {
    int count;
    int *body;        // bullet body slots, ascending
    int *shape_start; // bullet k's finite shapes: shape[shape_start[k] .. shape_start[k + 1]), ascending
    int *shape;
} bullet_lists;

// The sweep of one body (its start pose from integrate_positions).
static rb_sweep body_sweep(const rb_cpu_ctx *c, int b)
{
    const rb_scene *s = c->scene;
    return rb_body_sweep(b, s->body_pos, s->body_rot, c->step_start_pos, c->step_start_rot, s->body_local_center);
}

static rb_toi_shape toi_side(const rb_cpu_ctx *c, int i)
{
    const rb_scene *s = c->scene;
    return rb_shape_toi_side(i, s->shape_body, s->shape_type, s->shape_local_pos, s->shape_local_rot, s->shape_params,
                             s->hull_pool, s->body_local_center);
}

// Target j's box over the step into lo, hi.
static void target_box(const rb_cpu_ctx *c, int j, float grow, rb_float3 *lo, rb_float3 *hi)
{
    rb_sweep sw = body_sweep(c, c->scene->shape_body[j]);
    rb_toi_shape t = toi_side(c, j);
    rb_sweep_shape_box(&sw, &t, grow, lo, hi);
}

// The lists of this call; 0 if memory ran out (the caller then scans).
static int build_lists(const rb_cpu_ctx *c, float grow, bullet_lists *bl, target_list *tl)
{
    const rb_scene *s = c->scene;
    int nb = s->body_slots, ns = s->shape_slots;
    int *index = malloc(sizeof *index * (size_t)(nb > 0 ? nb : 1));
    if (!index)
        return 0;
    int bullets = 0, own = 0, targets = 0;
    for (int b = 0; b < nb; ++b)
        index[b] = rb_is_swept_bullet(s->body_flags[b]) ? bullets++ : -1;
    for (int i = 0; i < ns; ++i) {
        int b = s->shape_body[i];
        if (b < 0)
            continue;
        if (index[b] >= 0 && s->shape_type[i] != RB_GEOM_PLANE)
            ++own;
        else if (rb_is_sweep_target(i, s->shape_body, s->body_flags))
            ++targets;
    }
    bl->body = malloc(sizeof *bl->body * (size_t)(bullets + 1));
    bl->shape_start = calloc((size_t)bullets + 2, sizeof *bl->shape_start);
    bl->shape = malloc(sizeof *bl->shape * (size_t)(own + 1));
    tl->shape = malloc(sizeof *tl->shape * (size_t)(targets + 1));
    tl->lo = malloc(sizeof *tl->lo * (size_t)(targets + 1));
    tl->hi = malloc(sizeof *tl->hi * (size_t)(targets + 1));
    if (!bl->body || !bl->shape_start || !bl->shape || !tl->shape || !tl->lo || !tl->hi) {
        free(index);
        return 0;
    }
    bl->count = bullets;
    tl->count = 0;
    for (int b = 0; b < nb; ++b)
        if (index[b] >= 0)
            bl->body[index[b]] = b;
    // the bullets' shapes grouped by bullet (a counting sort keeps each bullet's in slot order)
    for (int i = 0; i < ns; ++i) {
        int b = s->shape_body[i];
        if (b >= 0 && index[b] >= 0 && s->shape_type[i] != RB_GEOM_PLANE)
            ++bl->shape_start[index[b] + 2];
    }
    for (int k = 0; k < bullets; ++k)
        bl->shape_start[k + 2] += bl->shape_start[k + 1];
    for (int i = 0; i < ns; ++i) {
        int b = s->shape_body[i];
        if (b < 0)
            continue;
        if (index[b] >= 0) {
            if (s->shape_type[i] != RB_GEOM_PLANE)
                bl->shape[bl->shape_start[index[b] + 1]++] = i;
        } else if (rb_is_sweep_target(i, s->shape_body, s->body_flags)) {
            tl->shape[tl->count++] = i;
        }
    }
    free(index);
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int k = 0; k < tl->count; ++k) {
        int j = tl->shape[k];
        if (s->shape_type[j] == RB_GEOM_PLANE)
            continue;
        rb_float3 lo, hi;
        target_box(c, j, grow, &lo, &hi);
        tl->lo[k] = rb_f4_from3(lo, 0.0f);
        tl->hi[k] = rb_f4_from3(hi, 0.0f);
    }
    return 1;
}

static void free_lists(bullet_lists *bl, target_list *tl)
{
    free(bl->body);
    free(bl->shape_start);
    free(bl->shape);
    free(tl->shape);
    free(tl->lo);
    free(tl->hi);
}

// Bullet k of the lists: rb_bullet_sweep's tests in its order, on the lists (its shapes, then the targets
// in slot order, the targets' boxes computed once).
static void sweep_bullet(rb_cpu_ctx *c, const bullet_lists *bl, int k, const target_list *tl, float target,
                         float tolerance)
{
    rb_scene *s = c->scene;
    int b = bl->body[k];
    const int *own = &bl->shape[bl->shape_start[k]];
    int n = bl->shape_start[k + 1] - bl->shape_start[k];
    float extent = RB_FLT_MAX;
    for (int m = 0; m < n; ++m)
        extent = rb_minf(extent, rb_geom_min_extent(s->shape_type[own[m]], s->shape_params[own[m]]));
    rb_sweep sb = body_sweep(c, b);
    if (!rb_sweep_is_fast(&sb, s->body_local_center[b].w, extent))
        return;
    float t_min = 1.0f;
    for (int m = 0; m < n; ++m) {
        int i = own[m];
        rb_toi_shape a = toi_side(c, i);
        rb_float3 lo3, hi3;
        rb_sweep_shape_box(&sb, &a, target + tolerance, &lo3, &hi3);
        rb_float4 lo = rb_f4_from3(lo3, 0.0f), hi = rb_f4_from3(hi3, 0.0f);
        for (int q = 0; q < tl->count; ++q) {
            int j = tl->shape[q];
            if (!rb_sweep_filter_allows(i, j, s->shape_filter))
                continue;
            if (s->shape_type[j] != RB_GEOM_PLANE && !rb_aabb_overlap(lo, hi, tl->lo[q], tl->hi[q]))
                continue;
            rb_sweep sj = body_sweep(c, s->shape_body[j]);
            rb_toi_shape t = toi_side(c, j);
            t_min = rb_sweep_pair(&a, &sb, &t, &sj, target, tolerance, t_min);
        }
    }
    if (t_min < 1.0f)
        rb_sweep_move_to(b, &sb, t_min, s->body_pos, s->body_rot);
}

rb_status rb_cpu_solve_continuous(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    rb_scene *s = c->scene;
    int nb = s->body_slots;
    c->pose_epoch++; // bullets move back to their time of impact (kept joint geometry, joint_solver.c)
    if (!c->step_start_pos || c->step_start_pos_cap < nb)
        return RB_OK; // no step has moved a body yet
    int any = 0;
    for (int b = 0; b < nb && !any; ++b)
        any = rb_is_swept_bullet(s->body_flags[b]);
    if (!any)
        return RB_OK;
    float target = rb_sweep_target(p->linear_slop), tolerance = rb_sweep_tolerance(target);
    bullet_lists bl = {0, NULL, NULL, NULL};
    target_list tl = {0, NULL, NULL, NULL};
    if (build_lists(c, target + tolerance, &bl, &tl)) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(c->team)
        for (int k = 0; k < bl.count; ++k)
            sweep_bullet(c, &bl, k, &tl, target, tolerance);
    } else {
        int ns = s->shape_slots;
#pragma omp parallel for schedule(dynamic, 16) num_threads(c->team)
        for (int b = 0; b < nb; ++b)
            rb_bullet_sweep(b, ns, target, tolerance, s->body_flags, s->body_pos, s->body_rot, c->step_start_pos,
                            c->step_start_rot, s->body_local_center, s->shape_body, s->shape_type, s->shape_local_pos,
                            s->shape_local_rot, s->shape_params, s->hull_pool, s->shape_filter);
    }
    free_lists(&bl, &tl);
    return RB_OK;
}
