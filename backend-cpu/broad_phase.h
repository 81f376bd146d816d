// CPU broad phase: candidate shape pairs whose bounding boxes overlap, in canonical order.
#ifndef RB_CPU_BROAD_PHASE_H
#define RB_CPU_BROAD_PHASE_H

#include <stdint.h>

#include "backend.h"

// What the broad phase reads. All arrays are indexed by shape slot [0, shape_slots).
typedef struct rb_broad_input {
    int shape_slots;
    const int *shape_body;       // owning body slot, -1 = free slot (skip)
    const int *shape_type;       // RB_GEOM_*; RB_GEOM_PLANE shapes are handled apart
    const rb_float4 *aabb_lo;    // world AABB of finite shapes (margin already included)
    const rb_float4 *aabb_hi;
    const rb_float4 *plane;      // world plane (n, offset) of RB_GEOM_PLANE shapes
    const uint32_t *shape_filter; // 2 per shape: category bits, mask bits
    const uint32_t *body_flags;  // RB_BODY_* flags of scene.h, indexed by body slot
    int include_sleeping;        // count sleeping dynamic bodies as awake (the sequential solver sees all contacts)
    int max_pairs;               // budget: more pairs than this is RB_ERR_CAPACITY (0: no budget)
} rb_broad_input;

typedef struct rb_broad_phase rb_broad_phase;

rb_broad_phase *rb_broad_phase_create(void);
// After RB_ERR_CAPACITY: how many pairs the search had found when it stopped (more than the budget).
int64_t rb_broad_phase_pairs_found(const rb_broad_phase *bp);
void rb_broad_phase_destroy(rb_broad_phase *bp);

// Finds every pair (a, b), a < b, of shapes that (the rules of core/kernels/pair.h, which the device
// broad phase applies too)
//  - belong to different bodies, neither of them FROZEN nor a free slot,
//  - where at least one body is dynamic, and at least one body is AWAKE (an awake body may be
//    dynamic or kinematic; a pair of two sleeping bodies, or sleeping + static, is skipped, unless
//    include_sleeping is set: then a sleeping dynamic body counts as awake),
//  - pass the filter: (cat_a & mask_b) != 0 && (cat_b & mask_a) != 0,
//  - overlap: finite-finite pairs when their AABBs overlap (touching counts), finite-plane pairs
//    when the AABB reaches the plane (lowest corner along n at or below the offset).
// The result is sorted by (a, b), without duplicates, identical for any thread count, and stays
// valid until the next call. Returns RB_ERR_OUT_OF_MEMORY (pairs untouched) if scratch cannot grow, and
// RB_ERR_CAPACITY (pairs untouched) when there are more than in->max_pairs: the search stops soon after a
// thread finds that many, so an overlapping heap costs time and memory bounded by the budget.
rb_status rb_broad_phase_find_pairs(rb_broad_phase *bp, const rb_broad_input *in, int threads,
                                    const rb_pair **pairs, int *count);

#endif
