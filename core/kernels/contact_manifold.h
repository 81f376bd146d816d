// The manifold of a touching pair as every backend stores it and hands it back (core/backend.h), in
// lists sorted by pair. narrow_phase.h fills them.
#ifndef RB_KERNELS_CONTACT_MANIFOLD_H
#define RB_KERNELS_CONTACT_MANIFOLD_H

#include "manifold.h"
#include "pair.h"

// A touching (or speculatively close) pair of shapes after the narrow phase and the solver.
typedef struct rb_contact_manifold {
    int shape_a, shape_b; // shape_a < shape_b; the normal points from a to b
    int body_a, body_b;
    rb_manifold m;
    float friction;          // kinetic, combined
    float static_friction;   // static, combined (>= friction)
    float restitution;
    float normal_impulse[RB_MAX_MANIFOLD_POINTS];
    rb_float3 friction_impulse[RB_MAX_MANIFOLD_POINTS]; // world frame
    float carried_impact[RB_MAX_MANIFOLD_POINTS]; // speculative stop's impact speed, for next step's bounce
} rb_contact_manifold;

// Point k's impulses as the read-back reports them and next step's warm start reads them. An impulse
// that overflowed (not finite) is kept as 0: every body it acted on went non-finite with it and is
// frozen by the step (put back to its pose before the step and stopped), so none of them kept it
// (docs/limits.md). Finite impulses are stored unchanged.
RB_FN void rb_contact_manifold_set_impulse(RB_GLOBAL rb_contact_manifold *m, int k, float normal, rb_float3 friction)
{
    int finite = (normal - normal) == 0.0f && rb_is_finite3(friction);
    m->normal_impulse[k] = finite ? normal : 0.0f;
    m->friction_impulse[k] = finite ? friction : rb_f3(0.0f, 0.0f, 0.0f);
}

// Index of the manifold of pair (a, b) in a list sorted by pair, or -1.
RB_FN int rb_find_manifold(RB_GLOBAL const rb_contact_manifold *list, int n, int a, int b)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (rb_pair_less(list[mid].shape_a, list[mid].shape_b, a, b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && list[lo].shape_a == a && list[lo].shape_b == b ? lo : -1;
}

#endif
