// Types and helpers shared by the device kernels (OpenCL and CUDA). The physics comes from
// core/kernels/; this file mirrors the layouts of core/backend.h that the kernels read and write, and
// the host checks at start-up that the sizes agree (rb_layout_sizes).
#include "device_prelude.h"
#include "body_flags.h"
#include "collide.h"
#include "constraint_graph.h"
#include "constraint_prepare.h"
#include "contact_persistence.h"
#include "contact_solver.h"
#include "contact_solver_split.h"
#include "integrate.h"
#include "rest_timer.h"

// rb_solver values of api/rubble.h that the kernels distinguish
#define RB_OP_MEASURE 0
#define RB_OP_WARM_START 1
#define RB_OP_SOLVE 2
#define RB_OP_RESTITUTION 3
#define RB_OP_POSITION 4

// core/backend.h: rb_pair and rb_contact_manifold, same members in the same order
typedef struct rb_pair {
    int shape_a, shape_b;
} rb_pair;

typedef struct rb_contact_manifold {
    int shape_a, shape_b;
    int body_a, body_b;
    rb_manifold m;
    float friction;
    float static_friction;
    float restitution;
    float normal_impulse[RB_MAX_MANIFOLD_POINTS];
    rb_float3 friction_impulse[RB_MAX_MANIFOLD_POINTS];
    float carried_impact[RB_MAX_MANIFOLD_POINTS];
} rb_contact_manifold;

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
}
