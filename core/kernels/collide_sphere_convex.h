// Narrow phase: sphere against convex.
#ifndef RB_KERNELS_COLLIDE_SPHERE_CONVEX_H
#define RB_KERNELS_COLLIDE_SPHERE_CONVEX_H

#include "collide_convex.h"

// Sphere A (params.x = radius) against convex B (rounding radius params.x), in B's hull frame: the exact
// closest point q of the hull (its core) to the sphere's centre c (rb_cx_point_hull: a face that sees c
// and holds its projection, else the nearest edge or vertex of the faces that see it; a centre inside
// the core is pushed out through the face of least penetration). With the core's outward normal nq at
// q and the signed distance dist (c = q + dist nq), the normal from A to B is -nq, the separation
// dist - r - rb, and the point lies midway between the sphere's surface c - r nq and the rounded hull's
// q + rb nq. One point, id 0 (as sphere-box: it stays as the sphere rolls over faces, edges, vertices).
RB_FN_CALLED void rb_collide_sphere_convex(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_manifold_clear(m);
    if (!b->hull.rec) // made without the pool: no contact
        return;
    float r = a->params.x, rh = b->params.x;
    rb_float3 d = rb_sub(a->xf.p, b->xf.p);
    float far = rb_hull_bounding_radius(b->hull) + rh + r + margin;
    if (rb_len_sq(d) > far * far)
        return;
    rb_float3 c = rb_inv_rotate(b->xf.q, d);
    rb_float3 q, nq;
    int feature;
    float dist = rb_cx_point_hull(b->hull, c, &q, &nq, &feature);
    float sep = dist - r - rh;
    m->normal = rb_rotate(b->xf.q, rb_neg(nq));
    if (!(sep < margin))
        return;
    rb_float3 mid = rb_scale(rb_add(rb_mad(c, -r, nq), rb_mad(q, rh, nq)), 0.5f);
    m->count = 1;
    m->points[0].point = rb_xform_point(b->xf, mid);
    m->points[0].separation = sep;
    m->points[0].id = 0u;
}

#endif
