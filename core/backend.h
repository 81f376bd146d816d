// The kernel set: one table of functions every backend fills (docs/architecture.md).
//
// The core owns the step sequence and calls these in order, timing each. Backends other than the CPU
// are shared modules loaded with dlopen; they export
//     const rb_backend_ops *rb_backend_module_ops(int abi_version);
// and receive everything else through these structs, so a module needs no symbol from librubble.
#ifndef RB_CORE_BACKEND_H
#define RB_CORE_BACKEND_H

#include <stddef.h>

#include "../api/rubble.h"
#include "kernels/contact_manifold.h"
#include "kernels/pair.h"
#include "scene.h"

// Bumped whenever a struct below changes layout or a function changes meaning.
#define RB_BACKEND_ABI_VERSION 9

typedef struct rb_backend_ctx rb_backend_ctx;

// Everything a kernel needs to know about the step, resolved by the core (no defaults left).
typedef struct rb_step_params {
    float dt;                    // substep length, s
    float inv_dt;
    rb_float3 gravity;
    int iterations;              // velocity iterations
    int position_iterations;     // split-impulse position iterations
    int solver;                  // rb_solver, never RB_SOLVER_DEFAULT
    int enable_sleep;
    float position_correction;
    float max_push_velocity;
    float contact_margin;
    float linear_slop;
    float restitution_threshold;
    float linear_sleep_tolerance;
    float angular_sleep_tolerance;
    float time_to_sleep;
    int substep;                 // 0 .. substeps-1
    int substeps;
    int stage;                   // soft solver: which pass solve_constraints runs (rb_solve_stage)
    float contact_hertz;         // soft solver, resolved for the substep (> 0)
    float contact_damping_ratio;
    rb_sequential_def seq;       // sequential solver, every automatic value resolved for this substep
    int max_pairs;               // since ABI 6: budget of candidate pairs; find_pairs fails with RB_ERR_CAPACITY
                                 // (and a message with the count) before it allocates more
    float joint_hertz;           // since ABI 9: soft solver's joint rows, resolved for the substep (> 0)
    float joint_damping_ratio;
} rb_step_params;

// The soft solver's passes (core/step.c step_soft): each substep solves with the position bias, moves
// the bodies, then relaxes; after the last substep come restitution and the impulses' store.
// RB_STAGE_GUARD (since ABI 6, sequential solver): before the first move of a step the application
// changed, the approaches of the contacts found at the poses before the move are limited to what their
// gaps allow (no warm start, nothing stored); core/step.c guard_first_move.
typedef enum rb_solve_stage { RB_STAGE_SOLVE = 0, RB_STAGE_RELAX, RB_STAGE_FINISH, RB_STAGE_GUARD } rb_solve_stage;

// rb_pair and rb_contact_manifold, the candidate pairs and the touching pairs every backend hands
// back, are defined once in core/kernels/ (pair.h, contact_manifold.h), where the device kernels that
// fill them read them too.

typedef struct rb_backend_config {
    int threads;               // resolved thread count (CPU backend), >= 1
    int require_gpu;           // automatic selection: start only on a GPU device, else fail
} rb_backend_config;

typedef struct rb_backend_stats {
    int pairs;
    int manifolds;
    int contacts;
    int colors;
    int awake_bodies;
    int resolutions;
    int shock_batches;
    int unresolved;
    int uncorrected;
} rb_backend_stats;

typedef struct rb_backend_ops {
    int abi_version;
    const char *name;

    // Starts the backend on `scene` (which outlives it). On failure writes a reason to msg.
    rb_status (*create)(rb_scene *scene, const rb_backend_config *cfg, rb_backend_ctx **out, char *msg, size_t msg_size);
    void (*destroy)(rb_backend_ctx *ctx);
    // Without creating anything: can the backend start here, and on which device? (rubble info)
    rb_status (*probe)(char *device, size_t device_size, char *msg, size_t msg_size);
    const char *(*device_name)(rb_backend_ctx *ctx);
    int (*supports_solver)(rb_backend_ctx *ctx, int solver);

    // Host <-> device. upload sends what scene->dirty marks; download brings body state back.
    rb_status (*upload)(rb_backend_ctx *ctx);
    rb_status (*download)(rb_backend_ctx *ctx);

    // The kernel set, in the order the core calls them for the batched solver.
    rb_status (*integrate_velocities)(rb_backend_ctx *ctx, const rb_step_params *p);
    rb_status (*update_bounds)(rb_backend_ctx *ctx, const rb_step_params *p);
    rb_status (*find_pairs)(rb_backend_ctx *ctx, const rb_step_params *p);
    rb_status (*collide)(rb_backend_ctx *ctx, const rb_step_params *p);
    rb_status (*build_batches)(rb_backend_ctx *ctx, const rb_step_params *p);
    rb_status (*correct_penetrations)(rb_backend_ctx *ctx, const rb_step_params *p); // may be NULL
    // Since ABI 5 (was solve_contacts): solves every edge of the constraint graph, whatever its kind.
    rb_status (*solve_constraints)(rb_backend_ctx *ctx, const rb_step_params *p);
    rb_status (*integrate_positions)(rb_backend_ctx *ctx, const rb_step_params *p);
    rb_status (*update_sleep)(rb_backend_ctx *ctx, const rb_step_params *p);

    // Results of the last step, in canonical order (sorted by shape pair). Host memory owned by
    // the backend, valid until the next step.
    rb_status (*get_pairs)(rb_backend_ctx *ctx, const rb_pair **pairs, int *count);
    rb_status (*get_manifolds)(rb_backend_ctx *ctx, const rb_contact_manifold **manifolds, int *count);
    void (*get_stats)(rb_backend_ctx *ctx, rb_backend_stats *out);
    // Bodies whose state went non-finite since the last call (already restored and frozen).
    int (*frozen_in_last_step)(rb_backend_ctx *ctx);

    // Since ABI 2. What went wrong in the last failed call, as a sentence (device, reason, build
    // log), or "" / NULL: the core puts it into the world's error message. May be NULL.
    const char *(*last_error)(rb_backend_ctx *ctx);

    // Since ABI 4. Called once around each rb_world_step (all substeps), before the upload and after
    // the last kernel (not after a failed kernel); either may be NULL. The CPU backend sizes its
    // thread team here.
    void (*begin_step)(rb_backend_ctx *ctx);
    void (*end_step)(rb_backend_ctx *ctx);

    // Since ABI 6. rb_world_shift_origin (core/world_origin.c): the origin moves to `origin`. Called
    // with the host scene up to date and not yet moved; the core moves the host's body positions after
    // this returns RB_OK (each with rb_origin_shifted, as the backend must too). The backend moves what
    // it keeps in world space from one step to the next: the contact points of the last step's
    // manifolds (the warm-start cache and the read-back), and a device its copy of the body positions.
    // Reference poses of reused manifolds are shape-relative and bounds are rebuilt at every step:
    // they need nothing. On failure the backend has moved nothing the core will not re-send (the core
    // then marks every body for upload). NULL: the core marks every body for upload and the contacts'
    // points are not moved.
    rb_status (*shift_origin)(rb_backend_ctx *ctx, rb_float3 origin);

    // Since ABI 6. Continuous collision, after the step's last kernel: every awake dynamic body flagged
    // RB_BODY_BULLET that moved more than half its smallest extent is swept from its pose at the start of
    // the step (the one integrate_positions saves at the first substep) to its pose now against the
    // static and kinematic shapes (core/kernels/time_of_impact.h), and put back at its time of impact if
    // it hits one; its velocities are kept. May be NULL (no continuous collision).
    rb_status (*solve_continuous)(rb_backend_ctx *ctx, const rb_step_params *p);
} rb_backend_ops;

// A world-space point after rb_world_shift_origin moved the origin to `origin`: the one formula the
// core (host positions) and the backends (their copies, contact points) share, so that both round alike.
static inline rb_float3 rb_origin_shifted(rb_float3 p, rb_float3 origin) { return rb_sub(p, origin); }

typedef const rb_backend_ops *(*rb_backend_module_fn)(int abi_version);
#define RB_BACKEND_MODULE_SYMBOL "rb_backend_module_ops"

#endif
