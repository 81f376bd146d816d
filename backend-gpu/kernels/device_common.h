// What the device kernels (OpenCL and CUDA) share. The physics and the per-element glue come from
// core/kernels/, including the structs the host stores (rb_pair, rb_contact_manifold) and the body
// flags; the host checks at start-up that its sizes of the structs agree with the device's
// (rb_layout_sizes), which catches a padding difference between the compilers.
#include "device_prelude.h"
#include "body_flags.h"
#include "bounds.h"
#include "constraint_graph.h"
#include "constraint_prepare.h"
#include "contact_apply.h"
#include "contact_manifold.h"
#include "contact_persistence.h"
#include "contact_solver.h"
#include "contact_solver_split.h"
#include "integrate.h"
#include "joint.h"
#include "manifold_reuse.h"
#include "narrow_phase.h"
#include "pair.h"
#include "rest_timer.h"

#include "device_counters.h"

// Host-side sizes of these structs are compared with these at start-up.
RB_KERNEL void rb_layout_sizes(RB_GLOBAL int *out)
{
    out[0] = (int)sizeof(rb_contact_manifold);
    out[1] = (int)sizeof(rb_contact_constraint);
    out[2] = (int)sizeof(rb_contact_point);
    out[3] = (int)sizeof(rb_mat3);
    out[4] = (int)sizeof(rb_xform);
    out[5] = (int)sizeof(rb_pair);
    out[6] = (int)sizeof(rb_float4);
    out[7] = (int)sizeof(rb_constraint_edge);
    out[8] = (int)sizeof(rb_manifold_ref);
    out[9] = (int)sizeof(rb_joint);
}
