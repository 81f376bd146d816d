// Narrow phase: convex against plane.
#ifndef RB_KERNELS_COLLIDE_CONVEX_PLANE_H
#define RB_KERNELS_COLLIDE_CONVEX_PLANE_H

#include "collide_convex.h"

// Convex A (rounding radius params.x) against plane B (params = world (n, offset), solid where
// dot(n, x) <= offset). The normal is -n. Every hull vertex v at height h above the plane (its core)
// with h - r < margin gives a point midway between the rounded surface and the plane, v - n (h + r) / 2,
// separation h - r; at most 4 are kept (rb_cx_candidates, rb_manifold_reduce). The heights come from
// the plane's normal turned into the hull frame once. Id = the vertex index.
RB_FN_CALLED void rb_collide_convex_plane(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_manifold_clear(m);
    rb_float3 pn = rb_xyz(b->params);
    rb_float3 nl = rb_inv_rotate(a->xf.q, pn);
    float r = a->params.x;
    float hc = rb_dot(pn, a->xf.p) - b->params.w;
    rb_float3 normal = rb_neg(pn);
    m->normal = normal;
    // no hull view (made without the pool), or nothing within reach: the lowest point of the bounding
    // sphere is above it
    if (!a->hull.rec || hc - rb_hull_bounding_radius(a->hull) - r >= margin)
        return;
    rb_cx_candidates cand;
    cand.n = 0;
    int nv = rb_mini(rb_hull_vertex_count(a->hull), RB_HULL_MAX_VERTICES);
    for (int i = 0; i <= nv; ++i) {
        rb_float3 v = i < nv ? rb_hull_vertex(a->hull, i) : rb_f3(0.0f, 0.0f, 0.0f);
        float h = hc + rb_dot(nl, v);
        if (i < nv && !(h - r < margin))
            continue;
        rb_manifold_point *c = rb_cx_candidates_next(&cand, normal, i == nv, m);
        if (i == nv)
            break;
        c->point = rb_mad(rb_xform_point(a->xf, v), -0.5f * (h + r), pn);
        c->separation = h - r;
        c->id = (unsigned int)i;
        cand.n++;
    }
}

#endif
