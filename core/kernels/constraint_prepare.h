// From an edge of the constraint graph to the rows the solvers sweep: the solver's view of the two
// bodies, and the contact rows of a manifold. build_batches on the CPU and the device's
// rb_prepare_constraints both call these.
#ifndef RB_KERNELS_CONSTRAINT_PREPARE_H
#define RB_KERNELS_CONSTRAINT_PREPARE_H

#include "body_flags.h"
#include "contact_manifold.h"
#include "contact_solver.h"

// Point i's warm start from its manifold: last step's impulses and carried impact.
RB_FN rb_contact_warm rb_manifold_warm(RB_GLOBAL const rb_contact_manifold *m, int i)
{
    rb_contact_warm w;
    w.friction = m->friction_impulse[i];
    w.normal = m->normal_impulse[i];
    w.carried_impact = m->carried_impact[i];
    return w;
}

// A body as the solver sees it: static bodies have no velocity, only dynamic ones have mass.
RB_FN rb_solver_body rb_solver_body_of(int b, RB_GLOBAL const unsigned int *flags, RB_GLOBAL const rb_float4 *pos,
                                       RB_GLOBAL const rb_float4 *rot, RB_GLOBAL const rb_float4 *lin_vel,
                                       RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL const rb_float4 *inv_diag,
                                       RB_GLOBAL const rb_mat3 *inv_inertia_world)
{
    rb_solver_body r;
    rb_float3 zero = rb_f3(0.0f, 0.0f, 0.0f);
    int is_static = (flags[b] & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T;
    r.p = rb_xyz(pos[b]);
    r.q = rot[b];
    r.v = is_static ? zero : rb_xyz(lin_vel[b]);
    r.w = is_static ? zero : rb_xyz(ang_vel[b]);
    r.inv_mass = rb_is_dynamic_flags(flags[b]) ? inv_diag[b].w : 0.0f;
    r.inv_inertia = inv_inertia_world[b];
    r.is_static = is_static;
    return r;
}

// The contact rows of a manifold between bodies a and b (k->first_point set by the caller): static
// bodies get no velocity slot (-1); kinematic ones are read, never written.
RB_FN void rb_prepare_contact_rows(rb_contact_constraint *k, rb_contact_point *pts, const rb_manifold *m,
                                   rb_contact_material mat, const rb_contact_warm *warm, float slop, int a, int b,
                                   RB_GLOBAL const unsigned int *flags, RB_GLOBAL const rb_float4 *pos,
                                   RB_GLOBAL const rb_float4 *rot, RB_GLOBAL const rb_float4 *lin_vel,
                                   RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL const rb_float4 *inv_diag,
                                   RB_GLOBAL const rb_mat3 *inv_inertia_world)
{
    k->body_a = (flags[a] & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T ? -1 : a;
    k->body_b = (flags[b] & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T ? -1 : b;
    rb_solver_body A = rb_solver_body_of(a, flags, pos, rot, lin_vel, ang_vel, inv_diag, inv_inertia_world);
    rb_solver_body B = rb_solver_body_of(b, flags, pos, rot, lin_vel, ang_vel, inv_diag, inv_inertia_world);
    rb_contact_prepare(k, pts, m, mat, slop, warm, &A, &B);
}

#endif
