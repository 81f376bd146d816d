// The soft solver's passes over the colours, wide (contact_solver_wide.c): the manifolds of a colour
// solved RB_WIDE_LANES at a time in the lanes of SIMD vectors, as Box2D v3's wide solver does. The
// physics is rb_contact_solve_soft's (core/kernels/contact_soft.h), operation for operation, so each
// lane gives the scalar code's result; the scalar code stays the reference and what the GPUs compile.
#ifndef RB_CPU_CONTACT_SOLVER_WIDE_H
#define RB_CPU_CONTACT_SOLVER_WIDE_H

#include "cpu_context.h"
#include "kernels/contact_soft.h"

struct rb_wide_state;

// Lays the colours' constraints out in lanes and copies their rows and impulses (from c->points).
// Serial part and allocation; call outside a parallel region, then rb_wide_fill inside one.
rb_status rb_wide_build(rb_cpu_ctx *c);
void rb_wide_fill(rb_cpu_ctx *c);

// One pass over every colour (inside a parallel region): the warm start, or a solve with the soft
// bias (use_bias) or without it (relax). The overflow batch is the caller's (scalar, c->points).
void rb_wide_warm_start(rb_cpu_ctx *c);
void rb_wide_solve(rb_cpu_ctx *c, const rb_soft_settings *st, int use_bias);

// Constraint j's accumulated normal impulses (RB_MAX_MANIFOLD_POINTS); NULL for the overflow batch,
// whose impulses are in c->points.
const float *rb_wide_normal_impulses(const rb_cpu_ctx *c, int j, float *out);

// Before a pass after the bodies moved: the speculative points between two moving bodies get rows at
// the current poses (rb_soft_refresh_constraint, in c->points), copied into their lanes. Inside a
// parallel region; a group's lanes are refreshed by one thread.
void rb_wide_refresh(rb_cpu_ctx *c, float slop);
// Refreshes constraint j's closing points in c->points (contact_solver_soft.c); 1 if it did.
int rb_soft_refresh_constraint(rb_cpu_ctx *c, int j, float slop);

// Copies the impulses back to c->points (inside a parallel region), for restitution and the store.
void rb_wide_store(rb_cpu_ctx *c);

void rb_wide_free(struct rb_wide_state *w);

#endif
