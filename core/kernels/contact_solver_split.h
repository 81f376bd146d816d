// The split solver (Tonge et al. 2012: Tonge, Benevolenski and Voroshilov, "Mass splitting for jitter-free
// parallel rigid body simulation", SIGGRAPH 2012): projected Jacobi with mass splitting.
//
// Every constraint block (one manifold, up to four points) is solved at once against the body
// velocities of the start of the sweep, with Gauss-Seidel inside the block (rb_contact_solve and
// friends, unchanged); its velocity changes are then summed per body. A body touched by n blocks is
// split into n sub-bodies of 1/n of its mass and inertia: the rows' effective masses use n M_b (the
// "split" mass), the impulses are applied with the full mass, and summing the blocks' velocity
// changes is the exact solve of the fixed joints that hold the sub-bodies together (their average
// velocity). The iteration converges for any contact graph, and the result does not depend on the
// order in which blocks are visited, so it cannot jitter with the schedule of a parallel machine.
#ifndef RB_KERNELS_CONTACT_SOLVER_SPLIT_H
#define RB_KERNELS_CONTACT_SOLVER_SPLIT_H

#include "contact_solver.h"

// 1 / (n_a (m_a^-1 + (ra x d).Ia^-1 (ra x d)) + n_b (...)): the effective mass of a row between
// sub-bodies of 1/n_a and 1/n_b of A and B. A static or kinematic side has no mass terms.
// Restitution's Jacobi sweeps. One sweep with split masses gives each bouncing contact only its
// share: a ball striking an equal one on a table (each also on the ground, so each mass split in two)
// left at 0.3 and 0.9 of the speed instead of 0 and 1. The sweeps converge on the exchange.
#define RB_SPLIT_RESTITUTION_SWEEPS 8

RB_FN void rb_split_row_mass(rb_contact_row *r, float ima, float imb, float na, float nb)
{
    float k = na * (ima + rb_dot(r->ra_x, r->ia_x)) + nb * (imb + rb_dot(r->rb_x, r->ib_x));
    r->mass = k > 0.0f ? 1.0f / k : 0.0f;
}

// Turns a prepared constraint (rb_contact_prepare) into a split one: na, nb are the numbers of
// blocks that touch A and B (1 for a static or kinematic side).
RB_FN void rb_split_prepare(const rb_contact_constraint *c, rb_contact_point *pts, float na, float nb)
{
    for (int i = 0; i < c->count; ++i) {
        rb_split_row_mass(&pts[i].n, c->inv_mass_a, c->inv_mass_b, na, nb);
        rb_split_row_mass(&pts[i].t1, c->inv_mass_a, c->inv_mass_b, na, nb);
        rb_split_row_mass(&pts[i].t2, c->inv_mass_a, c->inv_mass_b, na, nb);
    }
    if (c->twist_arm > 0.0f) {
        float k = na * rb_dot(c->normal, c->twist_ia) + nb * rb_dot(c->normal, c->twist_ib);
        pts[0].twist_mass = k > 0.0f ? 1.0f / k : 0.0f;
    }
}

#endif
