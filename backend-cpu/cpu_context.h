// State of the CPU backend between kernel calls. The scene arrays are stepped in place; everything
// here is derived per step or carried between steps (the contact cache).
#ifndef RB_CPU_CONTEXT_H
#define RB_CPU_CONTEXT_H

#include <string.h>
#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend.h"
#include "broad_phase.h"
#include "kernels/constraint_graph.h"
#include "kernels/contact_sequential.h"
#include "kernels/contact_solver.h"
#include "kernels/joint.h"
#include "kernels/manifold_reuse.h"

#define RB_SEQ_MAX_PARTS 16

// Per-thread working memory of the sequential solver, sized for the largest batch.
typedef struct rb_seq_scratch {
    int *heap;             // violated contacts (binary heap or unsorted array)
    float *heap_keys;      // the keys the heap entries are filed under
    int *queue;            // bodies (breadth-first levels) or contacts (penetrating list)
    int *stack;            // depth-first search of penetration correction: bodies
    rb_float4 *stack_disp; // and their displacements
    int *touched;          // bodies displaced by the current approach
    int *best;             // bodies displaced by the best approach so far
    rb_float4 *best_disp;
    int *affected;         // contacts touched by the current approach
    int *best_affected;
    int cap_contacts, cap_bodies, cap_stack;
} rb_seq_scratch;

// A batch: independent group of touching non-fixed bodies with their contacts (sequential solver).
typedef struct rb_seq_batch {
    int first_contact, contact_count; // in seq_batch_contacts
    int first_body, body_count;       // in seq_batch_bodies
    int parts;                        // > 1: solved as spatial parts in parallel, then the seam
    int reach;                        // bodies united in it, with those joined to them without a contact
} rb_seq_batch;

typedef struct rb_cpu_ctx rb_cpu_ctx;

// What the kernels do for one solver: one table per solver (backend_cpu.c), chosen from p->solver by
// each kernel entry, so no other file tests which solver runs.
typedef struct rb_cpu_solver_ops {
    rb_status (*build)(rb_cpu_ctx *c, const rb_step_params *p);   // build_batches, after the edges
    rb_status (*correct)(rb_cpu_ctx *c, const rb_step_params *p); // correct_penetrations; NULL: none
    rb_status (*solve)(rb_cpu_ctx *c, const rb_step_params *p);   // solve_constraints
    rb_status (*sleep)(rb_cpu_ctx *c, const rb_step_params *p);   // update_sleep
    int pairs_sleeping;    // the broad phase pairs sleeping bodies too (pe's wake rules and batches)
    int pseudo_velocities; // integrate_positions adds the split-impulse pseudo velocities
    int rest_rules;        // integrate_velocities applies pe's wake rules 5, 6 and gravity damping
    int current_inertia;   // integrate_positions keeps cur_inv_inertia_* (passes between substeps)
} rb_cpu_solver_ops;

// memset to 0 of n bytes that may be 0 with a NULL array (a world that never had a body, or no
// contacts yet): memset(NULL, 0, 0) is undefined behaviour.
static inline void rb_zero(void *p, size_t n)
{
    if (n > 0)
        memset(p, 0, n);
}

struct rb_cpu_ctx {
    rb_scene *scene;
    char error[256];           // why the last failed kernel failed, or "" (ops.last_error)
    const rb_cpu_solver_ops *solver; // this step's solver
    int threads;
    int team;                  // threads the parallel loops use this step (<= threads; thread_team.c)

    // per shape, from update_bounds
    int shape_cap;
    rb_xform *shape_world;     // world pose of each shape
    rb_float4 *aabb_lo, *aabb_hi;
    rb_float4 *plane_world;    // world (n, offset) of plane shapes

    // per body
    int body_cap;
    rb_mat3 *inv_inertia_world; // from update_bounds (orientation is fixed until integrate_positions)
    // the same at the current orientation, kept by integrate_positions for the soft solver's refresh
    // of rows between substeps (rb_world_inv_inertia_sym's layout: one computation per body and substep
    // instead of one per constraint and pass)
    rb_float4 *cur_inv_inertia_diag, *cur_inv_inertia_offdiag;
    rb_float4 *pseudo_lin_vel;  // split-impulse pseudo velocities of this substep (move positions only)
    rb_float4 *pseudo_ang_vel;
    rb_color_bits *color_mask;  // colours used by each body while colouring
    int *island_parent;         // union-find for sleeping
    float *island_sleep_time;
    float *rest_low;            // lowest surface speed since the rest timer started (rb_rest_timer)
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
    // the constraint graph: one edge per manifold, in manifold order (build_batches)
    rb_constraint_edge *edges;
    int edge_count, edge_cap;
    rb_contact_manifold *pair_scratch; // one slot per pair before compaction
    int pair_scratch_cap;
    // where each manifold's points were found, for reuse while its shapes hardly move
    // (core/kernels/manifold_reuse.h): beside manifolds, cache and pair_scratch, index for index
    rb_manifold_ref *refs, *cache_refs, *pair_refs;
    int refs_cap, cache_refs_cap, pair_refs_cap;
    int *pair_offset;                  // compaction offsets
    int pair_offset_cap;

    // batched, split and soft solvers: one constraint per edge, ordered by colour
    rb_contact_constraint *constraints;
    int constraint_cap;
    rb_contact_point *points;   // points of all constraints; constraint i's start at constraints[i].first_point
    int point_cap;
    int *color_order;      // edge indices grouped by colour: constraint j is built from edge color_order[j]
    int color_order_cap;
    int *constraint_color;
    int constraint_color_cap;
    int color_start[RB_MAX_COLORS + 2]; // colour c: color_order[color_start[c] .. color_start[c+1]); last = overflow
    int color_count;
    int any_restitution;   // some constraint bounces (the measure and restitution sweeps are needed)
    int contact_point_count;

    // sequential solver
    rb_seq_contact *seq;          // one per manifold point, in manifold order
    int seq_count, seq_cap;
    int *seq_heap_pos;            // position in its batch's closing container, -1 = not in it
    uint8_t *seq_two_way;         // shock propagation: a frozen body keeps its mass in this contact
    int *seq_epoch;               // penetration correction: contact already in the affected list
    int *seq_part;                // part of a split batch (-1: seam contact)
    int *seq_manifold_patch;      // the friction patch of each manifold (its index in seq; -1: none)
    int seq_manifold_patch_cap;
    int seq_body_cap;             // capacity of the body_* arrays below
    int *body_contact_start;      // adjacency of non-fixed bodies (CSR, seq_body_cap entries)
    int *body_contacts;
    int body_contacts_cap;
    int *body_joint_start;        // each body's joint edges (CSR, seq_body_cap entries; rb_edge_body_lists:
    int *body_joints;             // joint edge * 2 + side, side 0: the body is A)
    int body_joints_cap;
    int *body_batch;              // batch of each body (-1: none); also union-find scratch
    int *body_part;               // part of a split batch
    int *body_level;              // shock propagation level (-1: not reached)
    int *body_supports;           // shock propagation: contacts resting on a body not yet levelled
    int *body_epoch;              // penetration correction stamps
    rb_float4 *body_disp;
    rb_float4 *body_moved;        // total translation by penetration correction this step
    uint8_t *body_frozen;         // infinite mass during shock propagation
    int *gravity_contacts;        // contacts "in the direction of gravity" this step (wake rules 5, 6)
    int *gravity_contacts_prev;
    // the test of rest (body_sleep.c, rb_seq_update_rest)
    rb_float4 *body_prev_lin_vel; // velocity at the end of the last substep (w: substeps of history)
    rb_float4 *body_prev_ang_vel; // angular velocity (w: 1 = the body is at rest)
    rb_float4 *body_acc_lin;      // recency-weighted mean of the velocity change per substep (w: mean square)
    rb_float4 *body_acc_ang;      // and of the angular velocity change
    rb_seq_batch *batches;
    int batch_count, batch_cap;
    int *seq_batch_contacts, *seq_batch_bodies;
    int seq_batch_contacts_cap, seq_batch_bodies_cap;
    rb_seq_scratch *scratch;      // one per thread
    int scratch_threads;
    int seq_iterations;           // resolutions in the last step (all batches)
    int seq_shock_batches;        // batches that needed shock propagation in the last step
    int seq_unresolved;           // contacts still closing after the resolution
    int seq_uncorrected;          // contacts still penetrating after the correction

    rb_float4 *step_start_pos, *step_start_rot; // poses at the start of the step (integrate.c)
    int step_start_pos_cap, step_start_rot_cap;
    int frozen_last_step;
    int awake_bodies;

    // soft solver: shock-propagation levels (shock_levels.c)
    int *shock_level, shock_level_cap;               // per body, -1: not carried by anything fixed
    int *shock_carry_start, shock_carry_start_cap;   // scratch: CSR of what each body carries
    int *shock_carry, shock_carry_cap;
    int *shock_order, shock_order_cap;               // levelled bodies, level by level
    int *shock_level_start, shock_level_start_cap;   // level l+1: shock_order[start[l] .. start[l+1])
    int *shock_support_start, shock_support_start_cap; // per shock_order entry: its supports
    int *shock_supports, shock_supports_cap;         // constraint * 2 + (A is the supporting body)
    int *shock_edge, shock_edge_cap;                 // scratch: per constraint, support_of's answer
    int shock_levels, shock_bodies;
    int *impact, impact_cap;                         // candidate points of the impact pass
    float *impact_gap;                               // their gaps now (the points a gap away)
    int impact_gap_cap;

    // joints (joint_solver.c): their edges (first_row: the joint's slot), coloured among themselves
    rb_constraint_edge *joint_edges;
    int joint_edge_count, joint_edge_cap;
    int *joint_color_order, joint_color_order_cap; // edge indices by colour
    int *joint_edge_color, joint_edge_color_cap;
    // per joint edge: what rb_joint_op keeps, at the poses of pose_epoch `joint_geometry_epoch`
    rb_joint_kept *joint_geometry;
    int joint_geometry_cap;
    int *joint_geometry_epoch, joint_geometry_epoch_cap;
    // bumped wherever the bodies' poses change (serial code only): kept joint geometry is then stale
    int pose_epoch;
    int joint_color_start[RB_MAX_COLORS + 2];
    int joint_color_count;
    // sorted (lower body, higher body) keys of joints whose bodies do not collide (the narrow phase)
    rb_joint_key *nocollide;
    int nocollide_count, nocollide_cap;
    uint32_t nocollide_version;
    int nocollide_valid;

    struct rb_split_state *split; // the split solver's scratch (contact_solver_split.c), NULL until used
    void *wide;                   // the soft solver's lanes (contact_solver_wide.c), NULL until used
    int wide_lanes;               // their width, 4 or 8, chosen at the first use (contact_solver_wide_pick.c)
    int soft_reference;           // soft: the scalar passes instead of the lanes (tests compare the two)

    struct rb_thread_team *thread_team; // sets `team` at each step (thread_team.c)
};

// Grows an array to hold n elements (geometric growth); returns 0 on allocation failure.
int rb_cpu_reserve(void **array, int *capacity, int n, size_t elem_size);

// Kernels (each file implements one; backend_cpu.c routes the solver-dependent ones through c->solver).
rb_status rb_cpu_update_bounds(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_find_pairs(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_collide(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_integrate_velocities(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_cpu_integrate_positions(rb_backend_ctx *ctx, const rb_step_params *p);
void rb_cpu_freeze_non_finite_velocities(rb_cpu_ctx *c);
// The constraint graph of this step's manifolds (constraint_graph.c); build_batches starts with it.
rb_status rb_cpu_build_edges(rb_cpu_ctx *c);
// Joints (joint_solver.c). The passes are called inside a parallel region.
rb_status rb_cpu_build_joint_edges(rb_cpu_ctx *c);
void rb_cpu_color_joints(rb_cpu_ctx *c);
rb_joint_settings rb_cpu_joint_settings(const rb_step_params *p, int pass);
void rb_cpu_joints_warm_start(rb_cpu_ctx *c, const rb_joint_settings *st);
// One pass of the joints' rows; with RB_JOINT_PASS_POSITION on the pseudo velocities (the rigid solvers'
// position pass).
void rb_cpu_joints_solve(rb_cpu_ctx *c, const rb_joint_settings *st);
void rb_cpu_joints_finish(rb_cpu_ctx *c, float inv_h);
rb_status rb_cpu_update_nocollide(rb_cpu_ctx *c);
int rb_cpu_joints_wake_partners(rb_cpu_ctx *c);
void rb_cpu_solve_joints_only(rb_cpu_ctx *c, const rb_step_params *p, const rb_joint_settings *jst);
// build_batches of the batched, split and soft solvers: waking, colours, constraints (graph_color.c).
rb_status rb_cpu_build_colored(rb_cpu_ctx *c, const rb_step_params *p);
// solve_constraints of the batched solver (contact_solver_batched.c).
rb_status rb_cpu_solve_batched(rb_cpu_ctx *c, const rb_step_params *p);
// update_sleep of the batched, split and soft solvers: islands over the edges (islands.c).
rb_status rb_cpu_sleep_islands(rb_cpu_ctx *c, const rb_step_params *p);
// Shock-propagation levels of this step's constraints (soft solver).
rb_status rb_cpu_build_shock_levels(rb_cpu_ctx *c, rb_float3 gravity);
// The soft solver's pass p->stage (contact_solver_soft.c).
rb_status rb_cpu_solve_soft(rb_cpu_ctx *c, const rb_step_params *p);
// The batched and split solvers' shock pass over the levels (inside a parallel region): velocities,
// or (position) the split-impulse pseudo velocities.
void rb_cpu_shock_pass_rigid(rb_cpu_ctx *c, rb_solve_settings st, int position);
// Copies the constraints' impulses back to the manifolds (read-back and next step's warm start).
void rb_cpu_store_impulses(rb_cpu_ctx *c, float inv_h, float slop);

// The sequential solver's stages (its table in backend_cpu.c).
rb_status rb_seq_build_batches(rb_cpu_ctx *c, const rb_step_params *p);
rb_status rb_seq_correct_penetrations(rb_cpu_ctx *c, const rb_step_params *p);
void rb_seq_solve(rb_cpu_ctx *c, const rb_step_params *p);
void rb_seq_update_sleep(rb_cpu_ctx *c, const rb_step_params *p);
void rb_seq_wake_unsupported(rb_cpu_ctx *c);

void rb_seq_update_rest(rb_cpu_ctx *c, const rb_step_params *p);

// Is body b at rest (rb_seq_update_rest, at the end of the last substep)?
static inline int rb_seq_at_rest(const rb_cpu_ctx *c, int b)
{
    return c->body_prev_ang_vel[b].w > 0.0f;
}
// Static, kinematic or frozen after a non-finite state: infinite mass for the sequential solver.
int rb_seq_is_fixed(const rb_cpu_ctx *c, int b);

// Wakes every sleeping body of the groups marked in ctx->wake_group; returns how many woke.
int rb_cpu_wake_marked_groups(rb_cpu_ctx *c);

// The sequential solver's scratch of the calling OpenMP thread.
static inline rb_seq_scratch *rb_seq_my_scratch(rb_cpu_ctx *c)
{
#ifdef _OPENMP
    return &c->scratch[omp_get_thread_num()];
#else
    return &c->scratch[0];
#endif
}

static inline int rb_body_is_dynamic(const rb_scene *s, int b)
{
    return (s->body_flags[b] & RB_BODY_TYPE_MASK) == RB_BODY_DYNAMIC_T;
}

#endif
