// The CPU backend: the kernel table, the solvers' tables, creation, and what it reports.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend_registry.h"
#include "contact_solver_split.h"
#include "contact_solver_wide.h"
#include "continuous.h"
#include "cpu_context.h"
#include "thread_team.h"

int rb_cpu_reserve(void **array, int *capacity, int n, size_t elem_size)
{
    if (n <= *capacity)
        return 1;
    int cap = *capacity > 0 ? *capacity : 256;
    while (cap < n)
        cap = cap <= (1 << 29) ? cap * 2 : n;
    void *p = realloc(*array, (size_t)cap * elem_size);
    if (!p)
        return 0;
    *array = p;
    *capacity = cap;
    return 1;
}

// First "model name" line of /proc/cpuinfo, for rubble info and the bench JSON.
static void cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ' || *colon == '\t')
                    colon++;
                snprintf(out, size, "%s", colon);
                out[strcspn(out, "\n")] = '\0';
            }
            break;
        }
    }
    fclose(f);
}


typedef struct rb_cpu_backend {
    rb_cpu_ctx c;
    char device[320];
} rb_cpu_backend;

static rb_status cpu_create(rb_scene *scene, const rb_backend_config *cfg, rb_backend_ctx **out, char *msg,
                            size_t msg_size)
{
    if (cfg->require_gpu) {
        snprintf(msg, msg_size, "the CPU backend runs on no GPU");
        return RB_ERR_BACKEND_UNAVAILABLE;
    }
    rb_cpu_backend *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(msg, msg_size, "out of memory creating the CPU backend");
        return RB_ERR_OUT_OF_MEMORY;
    }
    b->c.scene = scene;
    b->c.threads = cfg->threads;
    b->c.team = cfg->threads;
    b->c.broad = rb_broad_phase_create();
    b->c.thread_team = malloc(sizeof *b->c.thread_team);
    if (!b->c.broad || !b->c.thread_team) {
        rb_broad_phase_destroy(b->c.broad);
        free(b->c.thread_team);
        free(b);
        snprintf(msg, msg_size, "out of memory creating the CPU backend");
        return RB_ERR_OUT_OF_MEMORY;
    }
    rb_team_init(b->c.thread_team, cfg->threads);
    char model[256];
    cpu_model(model, sizeof model);
    snprintf(b->device, sizeof b->device, "%s, %d thread%s%s", model, cfg->threads, cfg->threads == 1 ? "" : "s",
#ifdef _OPENMP
             ""
#else
             " (built without OpenMP)"
#endif
    );
    *out = (rb_backend_ctx *)b;
    return RB_OK;
}

static void cpu_destroy(rb_backend_ctx *ctx)
{
    if (!ctx)
        return;
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    rb_broad_phase_destroy(c->broad);
    rb_team_free(c->thread_team);
    free(c->thread_team);
    free(c->shape_world);
    free(c->aabb_lo);
    free(c->aabb_hi);
    free(c->plane_world);
    free(c->inv_inertia_world);
    free(c->cur_inv_inertia_diag);
    free(c->cur_inv_inertia_offdiag);
    free(c->pseudo_lin_vel);
    free(c->pseudo_ang_vel);
    free(c->color_mask);
    free(c->island_parent);
    free(c->island_sleep_time);
    free(c->rest_low);
    free(c->wake_group);
    free(c->manifolds);
    free(c->edges);
    free(c->joint_edges);
    free(c->joint_color_order);
    free(c->joint_edge_color);
    free(c->joint_geometry);
    free(c->joint_geometry_epoch);
    free(c->nocollide);
    free(c->cache);
    free(c->pair_scratch);
    free(c->refs);
    free(c->cache_refs);
    free(c->pair_refs);
    free(c->pair_offset);
    free(c->constraints);
    free(c->points);
    free(c->seq);
    free(c->seq_heap_pos);
    free(c->seq_two_way);
    free(c->seq_epoch);
    free(c->seq_part);
    free(c->seq_manifold_patch);
    free(c->body_contact_start);
    free(c->body_contacts);
    free(c->body_joint_start);
    free(c->body_joints);
    free(c->body_batch);
    free(c->body_part);
    free(c->body_level);
    free(c->body_supports);
    free(c->body_epoch);
    free(c->body_disp);
    free(c->body_moved);
    free(c->step_start_pos);
    free(c->step_start_rot);
    free(c->body_frozen);
    free(c->gravity_contacts);
    free(c->gravity_contacts_prev);
    free(c->body_prev_lin_vel);
    free(c->body_prev_ang_vel);
    free(c->body_acc_lin);
    free(c->body_acc_ang);
    free(c->batches);
    free(c->seq_batch_contacts);
    free(c->seq_batch_bodies);
    for (int t = 0; t < c->scratch_threads; ++t) {
        rb_seq_scratch *w = &c->scratch[t];
        free(w->heap);
        free(w->heap_keys);
        free(w->queue);
        free(w->stack);
        free(w->stack_disp);
        free(w->touched);
        free(w->best);
        free(w->best_disp);
        free(w->affected);
        free(w->best_affected);
    }
    free(c->scratch);
    free(c->color_order);
    free(c->constraint_color);
    free(c->shock_level);
    free(c->shock_carry_start);
    free(c->shock_carry);
    free(c->shock_order);
    free(c->shock_level_start);
    free(c->shock_support_start);
    free(c->shock_supports);
    free(c->shock_edge);
    free(c->impact);
    free(c->impact_gap);
    rb_cpu_split_free(c->split);
    rb_wide_free(c);
    free(ctx);
}

static rb_status cpu_probe(char *device, size_t device_size, char *msg, size_t msg_size)
{
    char model[256];
    cpu_model(model, sizeof model);
    snprintf(device, device_size, "%s", model);
#ifdef _OPENMP
    snprintf(msg, msg_size, "%d cores, OpenMP", omp_get_num_procs());
#else
    snprintf(msg, msg_size, "built without OpenMP: 1 thread");
#endif
    return RB_OK;
}

static const char *cpu_device_name(rb_backend_ctx *ctx) { return ((rb_cpu_backend *)ctx)->device; }

// The scene is stepped in place, so there is nothing to copy; but a shape slot that changed (destroyed,
// reused, resized) must not warm start from the contacts of what was there before.
static rb_status cpu_upload(rb_backend_ctx *ctx)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    const rb_scene *s = c->scene;
    if ((s->dirty & RB_DIRTY_BODY_STATE) && c->body_prev_lin_vel) {
        // a body the application created, moved, woke or set the velocity of has no velocity history
        // (the sequential solver's test of rest, body_sleep.c)
        int hi = s->dirty_body_hi < c->seq_body_cap ? s->dirty_body_hi : c->seq_body_cap;
        for (int b = s->dirty_body_lo; b < hi; ++b)
            c->body_prev_lin_vel[b].w = c->body_prev_ang_vel[b].w = 0.0f;
    }
    if (!(s->dirty & RB_DIRTY_SHAPES) || c->manifold_count == 0)
        return RB_OK;
    // last step's manifolds become the warm-start cache at the next collide: drop those of changed shapes
    int lo = s->dirty_shape_lo, hi = s->dirty_shape_hi, n = 0;
    for (int i = 0; i < c->manifold_count; ++i) {
        const rb_contact_manifold *m = &c->manifolds[i];
        int touched = (m->shape_a >= lo && m->shape_a < hi) || (m->shape_b >= lo && m->shape_b < hi);
        if (!touched) {
            c->refs[n] = c->refs[i];
            c->manifolds[n++] = *m;
        }
    }
    c->manifold_count = n;
    return RB_OK;
}

static rb_status cpu_get_pairs(rb_backend_ctx *ctx, const rb_pair **pairs, int *count)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    *pairs = c->pairs;
    *count = c->pair_count;
    return RB_OK;
}

static rb_status cpu_get_manifolds(rb_backend_ctx *ctx, const rb_contact_manifold **m, int *count)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    *m = c->manifolds;
    *count = c->manifold_count;
    return RB_OK;
}

static void cpu_get_stats(rb_backend_ctx *ctx, rb_backend_stats *out)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    out->pairs = c->pair_count;
    out->manifolds = c->manifold_count;
    out->contacts = c->contact_point_count;
    out->colors = c->color_count > 0 ? c->color_count : c->batch_count;
    out->awake_bodies = c->awake_bodies;
    out->resolutions = c->seq_iterations;
    out->shock_batches = c->seq_shock_batches;
    out->unresolved = c->seq_unresolved;
    out->uncorrected = c->seq_uncorrected;
}

// Bodies frozen since the last call (the core asks once per substep).
static int cpu_frozen(rb_backend_ctx *ctx)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    int n = c->frozen_last_step;
    c->frozen_last_step = 0;
    return n;
}

// The team for this step: fewer threads while the full team does not get the CPUs (thread_team.h).
static void cpu_begin_step(rb_backend_ctx *ctx)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    c->team = rb_team_begin_step(c->thread_team);
}

static const char *cpu_last_error(rb_backend_ctx *ctx) { return ((rb_cpu_ctx *)ctx)->error; }

static void cpu_end_step(rb_backend_ctx *ctx)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    rb_team_end_step(c->thread_team);
}

// ---- rb_world_shift_origin ----

// The only world-space state the CPU keeps between steps is the contact points of the last step's
// manifolds: next step's warm start matches points by distance where feature ids changed
// (core/kernels/contact_persistence.h), and the read-back reports them. Their normals and friction
// impulses are directions, the reuse references (core/kernels/manifold_reuse.h) are shape-relative,
// and shape poses and bounds are rebuilt from the bodies by update_bounds before anything reads them.
static rb_status cpu_shift_origin(rb_backend_ctx *ctx, rb_float3 origin)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    for (int i = 0; i < c->manifold_count; ++i) {
        rb_manifold *m = &c->manifolds[i].m;
        for (int k = 0; k < m->count; ++k)
            m->points[k].point = rb_origin_shifted(m->points[k].point, origin);
    }
    return RB_OK;
}

// ---- the solvers: one table each, the only place that knows which solver does what ----

// colours, constraints and the shock-propagation levels (every colour-batched solver has a shock pass)
static rb_status build_levelled(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_status s = rb_cpu_build_colored(c, p);
    return s != RB_OK ? s : rb_cpu_build_shock_levels(c, p->gravity);
}

// The solve runs after the substep's integrate_positions: a velocity it leaves non-finite is caught by
// the next substep's, or after the last substep here (the guard's solve is followed by one too).
static rb_status solve_sequential(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_seq_solve(c, p);
    if (p->stage != RB_STAGE_GUARD && p->substep == p->substeps - 1)
        rb_cpu_freeze_non_finite_velocities(c);
    return RB_OK;
}

// The relax pass runs after the substep's integrate_positions, and the finish (restitution, the store)
// after the last: the next substep's integrate_velocities catches what a relax pass left non-finite,
// this what the last one and the finish left (a pass over every body once per step, not per substep).
static rb_status solve_soft(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_status s = rb_cpu_solve_soft(c, p);
    if (s == RB_OK && p->stage == RB_STAGE_FINISH)
        rb_cpu_freeze_non_finite_velocities(c);
    return s;
}

static rb_status sleep_sequential(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_seq_update_sleep(c, p);
    return RB_OK;
}

static const rb_cpu_solver_ops batched = {
    .build = build_levelled, .solve = rb_cpu_solve_batched, .sleep = rb_cpu_sleep_islands,
    .pseudo_velocities = 1,
};
static const rb_cpu_solver_ops split = {
    .build = build_levelled, .solve = rb_cpu_solve_split, .sleep = rb_cpu_sleep_islands,
    .pseudo_velocities = 1,
};
static const rb_cpu_solver_ops soft = {
    .build = build_levelled, .solve = solve_soft, .sleep = rb_cpu_sleep_islands,
    .current_inertia = 1,
};
static const rb_cpu_solver_ops sequential = {
    .build = rb_seq_build_batches, .correct = rb_seq_correct_penetrations, .solve = solve_sequential,
    .sleep = sleep_sequential, .pairs_sleeping = 1, .rest_rules = 1,
};
static const rb_cpu_solver_ops *const solvers[] = {
    [RB_SOLVER_BATCHED] = &batched,
    [RB_SOLVER_SEQUENTIAL] = &sequential,
    [RB_SOLVER_SPLIT] = &split,
    [RB_SOLVER_SOFT] = &soft,
};

static int cpu_supports_solver(rb_backend_ctx *ctx, int solver)
{
    (void)ctx;
    return solver > 0 && solver < (int)(sizeof solvers / sizeof *solvers) && solvers[solver];
}

// Every kernel entry takes the step's solver from p (the application may change it between steps), so
// the files below it read c->solver instead of testing p->solver.
static rb_cpu_ctx *with_solver(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    c->solver = solvers[p->solver];
    return c;
}

static rb_status cpu_integrate_velocities(rb_backend_ctx *ctx, const rb_step_params *p)
{
    return rb_cpu_integrate_velocities((rb_backend_ctx *)with_solver(ctx, p), p);
}

static rb_status cpu_update_bounds(rb_backend_ctx *ctx, const rb_step_params *p)
{
    return rb_cpu_update_bounds((rb_backend_ctx *)with_solver(ctx, p), p);
}

static rb_status cpu_find_pairs(rb_backend_ctx *ctx, const rb_step_params *p)
{
    return rb_cpu_find_pairs((rb_backend_ctx *)with_solver(ctx, p), p);
}

static rb_status cpu_collide(rb_backend_ctx *ctx, const rb_step_params *p)
{
    return rb_cpu_collide((rb_backend_ctx *)with_solver(ctx, p), p);
}

// The constraint graph is built here, once per detection, whatever the solver.
static rb_status cpu_build_batches(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = with_solver(ctx, p);
    rb_status s = rb_cpu_build_edges(c);
    return s != RB_OK ? s : c->solver->build(c, p);
}

static rb_status cpu_correct_penetrations(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = with_solver(ctx, p);
    c->seq_uncorrected = 0;
    return c->solver->correct ? c->solver->correct(c, p) : RB_OK;
}

static rb_status cpu_solve_constraints(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = with_solver(ctx, p);
    return c->solver->solve(c, p);
}

static rb_status cpu_integrate_positions(rb_backend_ctx *ctx, const rb_step_params *p)
{
    return rb_cpu_integrate_positions((rb_backend_ctx *)with_solver(ctx, p), p);
}

static rb_status cpu_update_sleep(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = with_solver(ctx, p);
    return c->solver->sleep(c, p);
}

const rb_backend_ops rb_cpu_backend_ops = {
    .abi_version = RB_BACKEND_ABI_VERSION,
    .name = "cpu",
    .create = cpu_create,
    .destroy = cpu_destroy,
    .probe = cpu_probe,
    .device_name = cpu_device_name,
    .supports_solver = cpu_supports_solver,
    .upload = cpu_upload,
    .download = NULL,
    .integrate_velocities = cpu_integrate_velocities,
    .update_bounds = cpu_update_bounds,
    .find_pairs = cpu_find_pairs,
    .collide = cpu_collide,
    .build_batches = cpu_build_batches,
    .correct_penetrations = cpu_correct_penetrations,
    .solve_constraints = cpu_solve_constraints,
    .integrate_positions = cpu_integrate_positions,
    .update_sleep = cpu_update_sleep,
    .get_pairs = cpu_get_pairs,
    .get_manifolds = cpu_get_manifolds,
    .get_stats = cpu_get_stats,
    .frozen_in_last_step = cpu_frozen,
    .last_error = cpu_last_error,
    .begin_step = cpu_begin_step,
    .end_step = cpu_end_step,
    .shift_origin = cpu_shift_origin,
    .solve_continuous = rb_cpu_solve_continuous,
};
