// Types and helpers shared by the device kernels (OpenCL and CUDA). The physics comes from
// core/kernels/; this file mirrors the layouts of core/backend.h that the kernels read and write, and
// the host checks at start-up that the sizes agree (rb_layout_sizes).
#include "device_prelude.h"
#include "collide.h"
#include "contact_persistence.h"
#include "contact_solver.h"
#include "contact_solver_split.h"
#include "integrate.h"

// scene.h body flags
#define RB_BODY_TYPE_MASK 0x3u
#define RB_BODY_STATIC_T 0u
#define RB_BODY_KINEMATIC_T 1u
#define RB_BODY_DYNAMIC_T 2u
#define RB_BODY_ALIVE 0x04u
#define RB_BODY_AWAKE 0x08u
#define RB_BODY_FROZEN 0x10u
#define RB_BODY_SLEEP_ENABLED 0x20u

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
}

RB_FN int rb_is_dynamic_flags(uint f) { return (f & RB_BODY_TYPE_MASK) == RB_BODY_DYNAMIC_T; }

// A body that takes impulses: dynamic and not frozen.
RB_FN int rb_takes_impulses(RB_GLOBAL const uint *flags, int b)
{
    return b >= 0 && (flags[b] & (RB_BODY_TYPE_MASK | RB_BODY_FROZEN)) == RB_BODY_DYNAMIC_T;
}
