// Narrow phase: capsule against plane.
#ifndef RB_KERNELS_COLLIDE_CAPSULE_PLANE_H
#define RB_KERNELS_COLLIDE_CAPSULE_PLANE_H

#include "collide_sphere_capsule.h"

// Capsule A (params = (half_length, radius)) against plane B (params = world (n, offset), solid where
// dot(n, x) <= offset). The normal is -n. Each end of the segment is a sphere against the plane: up to
// two points, feature id = end index (0 at local y = -half_length, 1 at +half_length), in that order.
// A capsule lying on the plane gives both; a zero-length capsule behaves as a sphere (one point, id 0).
RB_FN void rb_collide_capsule_plane(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_float3 e0, e1, u;
    rb_capsule_segment(a, &e0, &e1, &u);
    float r = a->params.y;
    rb_float3 pn = rb_xyz(b->params);
    int ends = a->params.x > 0.0f ? 2 : 1;
    m->normal = rb_neg(pn);
    int count = 0;
    for (int i = 0; i < 2; ++i) {
        if (i >= ends)
            break;
        rb_float3 e = i == 0 ? e0 : e1;
        float h = rb_dot(pn, e) - b->params.w;  // height of the end above the plane
        float sep = h - r;
        if (sep < margin) {
            // sphere surface point e - n r, plane point e - n h; midway
            m->points[count].point = rb_mad(e, -0.5f * (r + h), pn);
            m->points[count].separation = sep;
            m->points[count].id = (unsigned int)i;
            ++count;
        }
    }
    m->count = count;
}

#endif
