// What the narrow phase carries from one step to the next, and the per-pair rules around
// rb_collide: matching this step's points to last step's (warm start), the speculative distance,
// and how two shapes' materials combine. Shared by every backend's narrow phase.
#ifndef RB_KERNELS_CONTACT_PERSISTENCE_H
#define RB_KERNELS_CONTACT_PERSISTENCE_H

#include "manifold.h"

// For each point of `m`, the index of the point of last step's manifold `old` it continues, or -1:
// first by feature id; then a point left unmatched takes the nearest unmatched old point within
// `radius`. The second pass matters for aligned boxes, whose clipped points switch between
// "incident vertex" and "edge crossing" ids as a corner moves by a hair across a side plane: without
// it a resting stack loses its warm start.
RB_FN void rb_warm_match(const rb_manifold *m, const rb_manifold *old, float radius, int *src)
{
    int new_done[RB_MAX_MANIFOLD_POINTS] = {0, 0, 0, 0}, old_used[RB_MAX_MANIFOLD_POINTS] = {0, 0, 0, 0};
    for (int i = 0; i < RB_MAX_MANIFOLD_POINTS; ++i)
        src[i] = -1;
    for (int i = 0; i < m->count; ++i) {
        for (int j = 0; j < old->count; ++j) {
            if (!old_used[j] && old->points[j].id == m->points[i].id) {
                src[i] = j;
                new_done[i] = old_used[j] = 1;
                break;
            }
        }
    }
    for (int i = 0; i < m->count; ++i) {
        if (new_done[i])
            continue;
        int best = -1;
        float best_d2 = radius * radius;
        for (int j = 0; j < old->count; ++j) {
            float d2 = rb_len_sq(rb_sub(old->points[j].point, m->points[i].point));
            if (!old_used[j] && d2 < best_d2) {
                best_d2 = d2;
                best = j;
            }
        }
        if (best >= 0) {
            src[i] = best;
            old_used[best] = 1;
        }
    }
}

// How far two bodies can close in on each other in one substep h (linear plus the rotation of their
// farthest surface point; `spin` = sum over the awake bodies of |w| * bounding radius): contacts are
// made this much earlier than contact_margin alone would, so a fast body is stopped at the surface
// instead of being found deep inside it (speculative contacts).
RB_FN float rb_closing_distance(rb_float3 va, rb_float3 vb, float spin, float h)
{
    return h * (rb_len(rb_sub(va, vb)) + spin);
}

// Friction combines by geometric mean, restitution by maximum (see rb_shape_def in rubble.h).
RB_FN float rb_mix_friction(float a, float b) { return rb_sqrtf(a * b); }
RB_FN float rb_mix_restitution(float a, float b) { return a > b ? a : b; }

#endif
