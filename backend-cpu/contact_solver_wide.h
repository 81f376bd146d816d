// The soft solver's passes over the colours, wide (contact_solver_wide.c): the manifolds of a colour
// solved RB_WIDE_LANES at a time in the lanes of SIMD vectors, as Box2D v3's wide solver does. The
// physics is rb_contact_solve_soft's (core/kernels/contact_soft.h), operation for operation, so each
// lane gives the scalar code's result; the scalar code stays the reference and what the GPUs compile.
#ifndef RB_CPU_CONTACT_SOLVER_WIDE_H
#define RB_CPU_CONTACT_SOLVER_WIDE_H

#include "cpu_context.h"
#include "kernels/contact_soft.h"

// Lays the colours' constraints and the shock levels' bodies out in lanes (outside a parallel region:
// the serial part and the allocation). The lanes are filled from c->points by the first warm start.
rb_status rb_wide_build(rb_cpu_ctx *c);

enum { RB_WIDE_WARM_START, RB_WIDE_SOLVE, RB_WIDE_RELAX };
enum { RB_WIDE_FILL = 1, RB_WIDE_REFRESH = 2 };

// One pass over every colour (inside a parallel region): the warm start, or a solve with the soft
// bias (use_bias) or without it (relax). Before its pass each group is filled from c->points
// (RB_WIDE_FILL, the frame's first) or gets fresh rows for its closing points (RB_WIDE_REFRESH, passes
// after the bodies moved: the speculative points between two moving bodies are rebuilt at the
// current poses, rb_contact_refresh_point). The overflow batch is the caller's (scalar, c->points).
void rb_wide_warm_start(rb_cpu_ctx *c, int prepare, float slop);
void rb_wide_solve(rb_cpu_ctx *c, const rb_soft_settings *st, int use_bias, int refresh);

// The refresh for constraint j in c->points (contact_solver_soft.c), for the overflow batch and the
// scalar passes; 1 if it did. The rows in c->points of the colours' constraints stay the frame's: after
// the solve only restitution reads them, and only at touching points, which are never refreshed.
int rb_soft_refresh_constraint(rb_cpu_ctx *c, int j, float slop);

// The shock pass from the ground up (rb_contact_solve_shock), RB_WIDE_LANES bodies of a level at a
// time; inside a parallel region. `first`: the frame's first (it lays the supports out).
void rb_wide_shock_pass(rb_cpu_ctx *c, const rb_soft_settings *st, int use_bias, int first);

// Copies the impulses back to c->points (inside a parallel region), for restitution and the store.
void rb_wide_store(rb_cpu_ctx *c);

void rb_wide_free(rb_cpu_ctx *c);

// The two builds of contact_solver_wide.c behind these (four lanes everywhere, eight where the CPU
// has AVX2; contact_solver_wide_pick.c chooses once per context, tests may set c->wide_lanes first).
#define RB_WIDE_VARIANT(lanes)                                                                            \
    rb_status rb_wide_build_##lanes(rb_cpu_ctx *c);                                                      \
    void rb_wide_warm_start_##lanes(rb_cpu_ctx *c, int prepare, float slop);                             \
    void rb_wide_solve_##lanes(rb_cpu_ctx *c, const rb_soft_settings *st, int use_bias, int refresh);    \
    void rb_wide_shock_pass_##lanes(rb_cpu_ctx *c, const rb_soft_settings *st, int use_bias, int first); \
    void rb_wide_store_##lanes(rb_cpu_ctx *c);                                                           \
    void rb_wide_free_##lanes(void *state);
RB_WIDE_VARIANT(4)
RB_WIDE_VARIANT(8)
#undef RB_WIDE_VARIANT

// Whether this build has the eight-lane variant (x86-64 with GCC).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define RB_WIDE_HAS_8 1
#else
#define RB_WIDE_HAS_8 0
#endif

#endif
