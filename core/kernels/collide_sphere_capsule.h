// Narrow phase: sphere against capsule.
#ifndef RB_KERNELS_COLLIDE_SPHERE_CAPSULE_H
#define RB_KERNELS_COLLIDE_SPHERE_CAPSULE_H

#include "closest_points.h"
#include "collide_sphere_sphere.h"

// World end points of a capsule's segment: e0 = local (0, -half_length, 0), e1 = (0, +half_length, 0),
// and the unit axis (local y in world; defined even for half_length 0).
RB_FN void rb_capsule_segment(const rb_geom *g, rb_float3 *e0, rb_float3 *e1, rb_float3 *axis)
{
    rb_float3 u = rb_rotate(g->xf.q, rb_f3(0.0f, 1.0f, 0.0f));
    *axis = u;
    *e0 = rb_mad(g->xf.p, -g->params.x, u);
    *e1 = rb_mad(g->xf.p, g->params.x, u);
}

// Sphere A (params.x = radius) against capsule B (params = (half_length, radius)): a sphere against
// the closest point of B's segment. One point, feature id 0.
// A centre on B's axis gives B's local x axis (in world) as the normal: perpendicular to the axis, so
// the separation -(rA + rB) is the true depth. A zero-length capsule behaves as a sphere, including
// the normal (0, 1, 0) for coincident centres.
RB_FN void rb_collide_sphere_capsule(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_float3 c = a->xf.p;
    rb_float3 e0, e1, u;
    rb_capsule_segment(b, &e0, &e1, &u);
    float t = rb_segment_closest_t(c, e0, e1);
    rb_float3 cb = rb_lerp3(e0, e1, t);
    rb_float3 d = rb_sub(cb, c);
    // with the closest point inside the segment, the offset is perpendicular to the axis: drop the
    // rounding noise along it, so that a centre on the axis is recognised
    if (t > 0.0f && t < 1.0f)
        d = rb_mad(d, -rb_dot(d, u), u);
    rb_float3 fallback = b->params.x > 0.0f ? rb_rotate(b->xf.q, rb_f3(1.0f, 0.0f, 0.0f)) : rb_default_contact_normal();
    rb_contact_rounded(c, a->params.x, cb, b->params.y, d, fallback, margin, 0u, m);
}

#endif
