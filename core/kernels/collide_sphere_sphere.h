// Narrow phase: sphere against sphere. Also home of rb_contact_rounded(), the one-point contact
// between two "rounded cores" (a point or the closest point of a capsule axis, grown by a radius)
// that the sphere and capsule pair routines share.
#ifndef RB_KERNELS_COLLIDE_SPHERE_SPHERE_H
#define RB_KERNELS_COLLIDE_SPHERE_SPHERE_H

#include "manifold.h"
#include "shape_geom.h"

// Below this squared length an offset between two cores counts as zero: the cores coincide and the
// caller's fallback normal is used. (1e-30 is a normal float, so no denormal reaches the square root
// on devices that flush them.)
#define RB_COINCIDENT_DIST_SQ 1e-30f

// Normal used when two sphere centres coincide, or in general when no direction is preferred.
RB_FN rb_float3 rb_default_contact_normal(void) { return rb_f3(0.0f, 1.0f, 0.0f); }

// One contact between core point `ca` grown by radius `ra` (shape A) and core point `cb` grown by
// `rb` (shape B). `d` is the offset cb - ca with any component the caller knows to be zero already
// removed (it only gives the direction and the distance); `fallback` is the unit normal used when d
// is (nearly) zero. Writes a one-point manifold with feature id `id`, or count 0 when the
// separation is not below `margin`. The normal is always written.
RB_FN void rb_contact_rounded(rb_float3 ca, float ra, rb_float3 cb, float rb, rb_float3 d, rb_float3 fallback,
                              float margin, unsigned int id, rb_manifold *m)
{
    float d2 = rb_dot(d, d);
    float dist = 0.0f;
    rb_float3 n = fallback;
    if (d2 > RB_COINCIDENT_DIST_SQ) {
        dist = rb_sqrtf(d2);
        n = rb_scale(d, 1.0f / dist);
    }
    float sep = dist - ra - rb;
    m->normal = n;
    if (!(sep < margin)) {
        m->count = 0;
        return;
    }
    // surface points: ca + n ra on A, cb - n rb on B; the contact point is midway
    rb_float3 pa = rb_mad(ca, ra, n);
    rb_float3 pb = rb_mad(cb, -rb, n);
    m->count = 1;
    m->points[0].point = rb_scale(rb_add(pa, pb), 0.5f);
    m->points[0].separation = sep;
    m->points[0].id = id;
}

// Sphere A (params.x = radius) against sphere B. Coincident centres give the normal (0, 1, 0).
// One point, feature id 0.
RB_FN void rb_collide_sphere_sphere(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_float3 ca = a->xf.p;
    rb_float3 cb = b->xf.p;
    rb_contact_rounded(ca, a->params.x, cb, b->params.x, rb_sub(cb, ca), rb_default_contact_normal(), margin, 0u, m);
}

#endif
