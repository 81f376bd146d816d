// Narrow-phase dispatch: the manifold of any two shapes, whatever order their types come in.
#ifndef RB_KERNELS_COLLIDE_H
#define RB_KERNELS_COLLIDE_H

#include "collide_box_box.h"
#include "collide_box_plane.h"
#include "collide_capsule_box.h"
#include "collide_capsule_capsule.h"
#include "collide_capsule_convex.h"
#include "collide_capsule_plane.h"
#include "collide_convex_convex.h"
#include "collide_convex_plane.h"
#include "collide_sphere_box.h"
#include "collide_sphere_capsule.h"
#include "collide_sphere_convex.h"
#include "collide_sphere_plane.h"
#include "collide_sphere_sphere.h"

// The pair index of types ta <= tb: the table of pair routines below is a switch over it (OpenCL C and
// CUDA for compute capability 1.0 have no function pointers).
#define RB_PAIR_INDEX(ta, tb) ((ta) * RB_GEOM_TYPE_COUNT + (tb))

// a->type <= b->type. Plane-plane pairs never reach the narrow phase (both static). A (plane, convex)
// pair runs convex-plane and turns its normal around. Box-convex takes the box as the pool's unit cube
// (its hull view) and runs convex-convex; box-box keeps its own routine.
RB_FN void rb_collide_ordered(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_manifold_clear(m);
    switch (RB_PAIR_INDEX(a->type, b->type)) {
    case RB_PAIR_INDEX(RB_GEOM_SPHERE, RB_GEOM_SPHERE): rb_collide_sphere_sphere(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_SPHERE, RB_GEOM_CAPSULE): rb_collide_sphere_capsule(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_SPHERE, RB_GEOM_BOX): rb_collide_sphere_box(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_SPHERE, RB_GEOM_PLANE): rb_collide_sphere_plane(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_SPHERE, RB_GEOM_CONVEX): rb_collide_sphere_convex(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_CAPSULE, RB_GEOM_CAPSULE): rb_collide_capsule_capsule(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_CAPSULE, RB_GEOM_BOX): rb_collide_capsule_box(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_CAPSULE, RB_GEOM_PLANE): rb_collide_capsule_plane(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_CAPSULE, RB_GEOM_CONVEX): rb_collide_capsule_convex(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_BOX, RB_GEOM_BOX): rb_collide_box_box(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_BOX, RB_GEOM_PLANE): rb_collide_box_plane(a, b, margin, m); break;
    case RB_PAIR_INDEX(RB_GEOM_BOX, RB_GEOM_CONVEX): // the box as its hull view: one call site, as the GPU
    case RB_PAIR_INDEX(RB_GEOM_CONVEX, RB_GEOM_CONVEX): // compilers inline every call
        rb_collide_convex_convex(a, b, margin, m);
        break;
    case RB_PAIR_INDEX(RB_GEOM_PLANE, RB_GEOM_CONVEX):
        rb_collide_convex_plane(b, a, margin, m);
        m->normal = rb_neg(m->normal);
        break;
    default: break; // plane-plane
    }
}

// Radius of curvature of a shape's surface where it touches: a sphere's or a capsule's radius; 0 for
// flat or edged shapes (box, plane, convex: a rounded hull is round only at its edges and vertices, and
// its rounding is small next to its faces, on which it rests).
RB_FN float rb_geom_round_radius(const rb_geom *g)
{
    return g->type == RB_GEOM_SPHERE ? g->params.x : (g->type == RB_GEOM_CAPSULE ? g->params.y : 0.0f);
}

// Manifold with the normal from a to b for any type order: a swapped pair is computed in type order
// and its normal flipped (points, separations and feature ids do not depend on the order).
RB_FN_CALLED void rb_collide(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    if (a->type <= b->type) {
        rb_collide_ordered(a, b, margin, m);
    } else {
        rb_collide_ordered(b, a, margin, m);
        m->normal = rb_neg(m->normal);
    }
    // the torsional friction of a one-point contact needs the size of its contact disc (contact_solver.h)
    float ra = rb_geom_round_radius(a), rb = rb_geom_round_radius(b);
    m->round_radius = ra > 0.0f && rb > 0.0f ? ra * rb / (ra + rb) : rb_maxf(ra, rb);
}

#endif
