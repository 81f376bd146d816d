// State of the CPU backend between kernel calls. The scene arrays are stepped in place; everything
// here is derived per step or carried between steps (the contact cache).
#ifndef RB_CPU_CONTEXT_H
#define RB_CPU_CONTEXT_H

#include <stdint.h>

#include "backend.h"
#include "broad_phase.h"
#include "kernels/contact_solver.h"

#define RB_MAX_COLORS 64

typedef struct rb_cpu_ctx {
    rb_scene *scene;
    int threads;

    // per shape, from update_bounds
    int shape_cap;
    rb_xform *shape_world;     // world pose of each shape
    rb_float4 *aabb_lo, *aabb_hi;
    rb_float4 *plane_world;    // world (n, offset) of plane shapes

    // per body
    int body_cap;
    rb_mat3 *inv_inertia_world; // from update_bounds (orientation is fixed until integrate_positions)
    rb_float4 *pseudo_lin_vel;  // split-impulse pseudo velocities of this substep (move positions only)
    rb_float4 *pseudo_ang_vel;
    uint64_t *color_mask;       // colours used by each body while colouring
    int *island_parent;         // union-find for sleeping
    float *island_sleep_time;
    uint8_t *wake_group;        // sleep groups to wake this step

    // broad phase
    rb_broad_phase *broad;
    const rb_pair *pairs;
    int pair_count;

    // narrow phase: this step's manifolds and last step's (the warm-start cache), both sorted by pair
    rb_contact_manifold *manifolds;
    int manifold_count, manifold_cap;
    rb_contact_manifold *cache;
    int cache_count, cache_cap;
    rb_contact_manifold *pair_scratch; // one slot per pair before compaction
    int pair_scratch_cap;
    int *pair_offset;                  // compaction offsets
    int pair_offset_cap;

    // batched solver: one constraint per manifold, ordered by colour
    rb_contact_constraint *constraints;
    int constraint_cap;
    rb_contact_point *points;   // points of all constraints; constraint i's start at constraints[i].first_point
    int point_cap;
    int *color_order;      // constraint indices grouped by colour
    int color_order_cap;
    int *constraint_color;
    int constraint_color_cap;
    int color_start[RB_MAX_COLORS + 2]; // colour c: color_order[color_start[c] .. color_start[c+1]); last = overflow
    int color_count;
    int any_restitution;   // some constraint bounces (the measure and restitution sweeps are needed)
    int contact_point_count;

    int frozen_last_step;
    int awake_bodies;

    struct rb_split_state *split; // the split solver's scratch (contact_solver_split.c), NULL until used
} rb_cpu_ctx;

// Grows an array to hold n elements (geometric growth); returns 0 on allocation failure.
int rb_cpu_reserve(void **array, int *capacity, int n, size_t elem_size);

// Kernels (each file implements one).
rb_status rb_cpu_update_bounds(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_find_pairs(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_collide(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_build_batches(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_integrate_velocities(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_solve_contacts(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_integrate_positions(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_update_sleep(rb_backend_ctx *ctx, const rb_step_params *p);
// Copies the constraints' impulses back to the manifolds (read-back and next step's warm start).
void rb_cpu_store_impulses(rb_cpu_ctx *c, float inv_h, float slop);

// Wakes every sleeping body of the groups marked in ctx->wake_group; returns how many woke.
int rb_cpu_wake_marked_groups(rb_cpu_ctx *c);

static inline int rb_body_is_dynamic(const rb_scene *s, int b)
{
    return (s->body_flags[b] & RB_BODY_TYPE_MASK) == RB_BODY_DYNAMIC_T;
}

#endif
