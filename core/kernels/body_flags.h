// A body's flags word (rb_scene.body_flags), as the core, the CPU backend and the device kernels read
// it: one definition, so the host's and the devices' meaning of a bit cannot drift apart.
#ifndef RB_KERNELS_BODY_FLAGS_H
#define RB_KERNELS_BODY_FLAGS_H

#include "portable.h"

// The low two bits are the body type (rb_body_type values).
#define RB_BODY_TYPE_MASK 0x3u
#define RB_BODY_STATIC_T 0u
#define RB_BODY_KINEMATIC_T 1u
#define RB_BODY_DYNAMIC_T 2u
#define RB_BODY_ALIVE 0x04u        // slot holds a body
#define RB_BODY_AWAKE 0x08u        // integrated and solved (never set on static bodies)
#define RB_BODY_FROZEN 0x10u       // state went non-finite once; excluded from simulation
#define RB_BODY_SLEEP_ENABLED 0x20u
#define RB_BODY_FIXED_MASS 0x40u   // mass given by the application, not from shape densities
#define RB_BODY_BULLET 0x80u       // swept against static and kinematic shapes (continuous collision)

RB_FN int rb_is_dynamic_flags(unsigned int f) { return (f & RB_BODY_TYPE_MASK) == RB_BODY_DYNAMIC_T; }

// A body that takes impulses: dynamic and not frozen (kinematic, static and frozen ones are read-only
// to the solvers). b < 0 is the world.
RB_FN int rb_takes_impulses(RB_GLOBAL const unsigned int *flags, int b)
{
    return b >= 0 && (flags[b] & (RB_BODY_TYPE_MASK | RB_BODY_FROZEN)) == RB_BODY_DYNAMIC_T;
}

// integrate_velocities moves awake dynamic bodies; integrate_positions every awake body that is not
// static (kinematic ones move with their velocity). A frozen body is left out of both.
RB_FN int rb_integrates_velocity(unsigned int f)
{
    return rb_is_dynamic_flags(f) && (f & RB_BODY_AWAKE) && !(f & RB_BODY_FROZEN);
}
RB_FN int rb_integrates_position(unsigned int f)
{
    return (f & RB_BODY_TYPE_MASK) != RB_BODY_STATIC_T && (f & RB_BODY_AWAKE) && !(f & RB_BODY_FROZEN) &&
           (f & RB_BODY_ALIVE);
}

// The flags of a body whose state went non-finite: out of the simulation until the application resets it.
RB_FN unsigned int rb_frozen_flags(unsigned int f) { return (f | RB_BODY_FROZEN) & ~RB_BODY_AWAKE; }

#endif
