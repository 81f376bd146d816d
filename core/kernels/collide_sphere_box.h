// Narrow phase: sphere against box.
#ifndef RB_KERNELS_COLLIDE_SPHERE_BOX_H
#define RB_KERNELS_COLLIDE_SPHERE_BOX_H

#include "manifold.h"
#include "shape_geom.h"

// Sphere A (params.x = radius) against box B (params = half extents). Works in the box frame.
// - Centre outside the box: the normal runs from the centre to the closest point of the box.
// - Centre inside (or on) the box: the sphere is pushed out through the face of least penetration;
//   ties go to the lower axis (x, then y, then z) and, for a centre exactly on a mid-plane, to the
//   positive face. The normal is minus that face's outward normal.
// One point, feature id 0 (a single point needs no other: the id stays fixed as the sphere rolls
// from face to edge to vertex, so the solver's warm start carries over).
RB_FN void rb_collide_sphere_box(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    float r = a->params.x;
    rb_float3 h = rb_f3(b->params.x, b->params.y, b->params.z);
    // sphere centre in the box frame
    rb_float3 c = rb_xform_inv_point(b->xf, a->xf.p);
    rb_float3 q = rb_f3(rb_clampf(c.x, -h.x, h.x), rb_clampf(c.y, -h.y, h.y), rb_clampf(c.z, -h.z, h.z));
    rb_float3 d = rb_sub(q, c);  // from the centre to the closest box point
    float d2 = rb_dot(d, d);
    rb_float3 n;    // box frame, from A to B
    float dist;     // signed distance from the centre to the box surface along n
    rb_float3 qs;   // box surface point, box frame
    if (d2 > 1e-30f) {
        dist = rb_sqrtf(d2);
        n = rb_scale(d, 1.0f / dist);
        qs = q;
    } else {
        // inside: depth below each face pair, pick the smallest
        float dx = h.x - rb_fabsf(c.x);
        float dy = h.y - rb_fabsf(c.y);
        float dz = h.z - rb_fabsf(c.z);
        qs = c;
        if (dx <= dy && dx <= dz) {
            float s = c.x >= 0.0f ? 1.0f : -1.0f;
            n = rb_f3(-s, 0.0f, 0.0f);
            qs.x = s * h.x;
            dist = -dx;
        } else if (dy <= dz) {
            float s = c.y >= 0.0f ? 1.0f : -1.0f;
            n = rb_f3(0.0f, -s, 0.0f);
            qs.y = s * h.y;
            dist = -dy;
        } else {
            float s = c.z >= 0.0f ? 1.0f : -1.0f;
            n = rb_f3(0.0f, 0.0f, -s);
            qs.z = s * h.z;
            dist = -dz;
        }
    }
    float sep = dist - r;
    rb_float3 nw = rb_rotate(b->xf.q, n);
    m->normal = nw;
    if (!(sep < margin)) {
        m->count = 0;
        return;
    }
    // sphere surface point c + n r, box surface point qs; midway
    rb_float3 mid = rb_scale(rb_add(rb_mad(c, r, n), qs), 0.5f);
    m->count = 1;
    m->points[0].point = rb_xform_point(b->xf, mid);
    m->points[0].separation = sep;
    m->points[0].id = 0u;
}

#endif
