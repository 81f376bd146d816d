// Contact manifolds: what the narrow phase produces for one pair of shapes.
#ifndef RB_KERNELS_MANIFOLD_H
#define RB_KERNELS_MANIFOLD_H

#include "vec_math.h"

#define RB_MAX_MANIFOLD_POINTS 4

typedef struct rb_manifold_point {
    rb_float3 point;   // world space, midway between the two surfaces
    float separation;  // signed distance along the normal: < 0 penetrating, > 0 speculative gap
    unsigned int id;   // feature id, stable from frame to frame while the same features touch
} rb_manifold_point;

typedef struct rb_manifold {
    rb_float3 normal;  // unit, points from shape A to shape B
    int count;         // 0 .. RB_MAX_MANIFOLD_POINTS
    float round_radius; // radius of curvature of the contact, R_A R_B / (R_A + R_B) with a flat or edged
                        // side counting as infinite; 0 when neither shape is round (rb_collide)
    rb_manifold_point points[RB_MAX_MANIFOLD_POINTS];
} rb_manifold;

RB_FN void rb_manifold_clear(rb_manifold *m)
{
    m->normal = rb_f3(0.0f, 1.0f, 0.0f);
    m->count = 0;
    m->round_radius = 0.0f;
}

#endif
