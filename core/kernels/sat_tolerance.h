// Tolerances shared by the separating-axis tests (box-box, capsule-box).
#ifndef RB_KERNELS_SAT_TOLERANCE_H
#define RB_KERNELS_SAT_TOLERANCE_H

#include "portable.h"

// An edge-edge axis beats the best face axis only if it separates by more than
// min(RB_SAT_EDGE_TOL_ABS, a tenth of the smallest feature size) + RB_SAT_EDGE_TOL_REL |face separation|:
// face contacts give stable multi-point manifolds, so a resting box does not flip to an edge contact
// (and back) on rounding noise.
#define RB_SAT_EDGE_TOL_ABS 0.0025f
#define RB_SAT_EDGE_TOL_REL 0.05f

// Cross products of edge directions shorter than this (squared; edges parallel within ~1 mm/m) are
// no axis: their direction is rounding noise, and the face axes cover that case.
#define RB_SAT_PARALLEL_SQ 1e-6f

RB_FN float rb_sat_edge_tolerance(float feature_size, float face_separation)
{
    return rb_minf(RB_SAT_EDGE_TOL_ABS, 0.1f * feature_size) + RB_SAT_EDGE_TOL_REL * rb_fabsf(face_separation);
}

#endif
