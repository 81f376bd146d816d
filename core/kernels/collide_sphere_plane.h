// Narrow phase: sphere against plane.
#ifndef RB_KERNELS_COLLIDE_SPHERE_PLANE_H
#define RB_KERNELS_COLLIDE_SPHERE_PLANE_H

#include "manifold.h"
#include "shape_geom.h"

// Sphere A (params.x = radius) against plane B (params = world (n, offset), solid where
// dot(n, x) <= offset). The normal points from the sphere into the plane's solid side: -n.
// One point, feature id 0, midway between the sphere's lowest point and the plane.
RB_FN void rb_collide_sphere_plane(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_float3 c = a->xf.p;
    float r = a->params.x;
    rb_float3 pn = rb_xyz(b->params);
    // signed height of the centre above the plane
    float h = rb_dot(pn, c) - b->params.w;
    float sep = h - r;
    m->normal = rb_neg(pn);
    if (!(sep < margin)) {
        m->count = 0;
        return;
    }
    // sphere surface point c - n r, plane point c - n h; midway: c - n (r + h) / 2
    m->count = 1;
    m->points[0].point = rb_mad(c, -0.5f * (r + h), pn);
    m->points[0].separation = sep;
    m->points[0].id = 0u;
}

#endif
