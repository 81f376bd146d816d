// Shape geometry as the kernels see it: type, world pose, size parameters; and its bounding box.
#ifndef RB_KERNELS_SHAPE_GEOM_H
#define RB_KERNELS_SHAPE_GEOM_H

#include "hull.h"

// Same numbering as rb_shape_type in api/rubble.h (checked by a static assert in core/).
#define RB_GEOM_SPHERE 0
#define RB_GEOM_CAPSULE 1
#define RB_GEOM_BOX 2
#define RB_GEOM_PLANE 3
#define RB_GEOM_CONVEX 4
#define RB_GEOM_TYPE_COUNT 5

typedef struct rb_geom {
    int type;
    rb_xform xf;      // world pose of the shape (planes: unused, the plane is in params)
    rb_float4 params; // sphere (r, -, -, -); capsule (half_length, r, -, -), axis = local y;
                      // box (hx, hy, hz, -); plane (nx, ny, nz, offset) in world space, n unit;
                      // convex (rounding radius, record offset in the hull pool, bounding radius of
                      // the rounded hull about its origin, inradius of the rounded hull about its origin)
    rb_hull_view hull; // convex: its record; box: the pool's unit cube at the half-extents (when the
                       // geometry was made with a pool, rb_geom_make_pooled); otherwise no record
} rb_geom;

RB_FN rb_geom rb_geom_make(int type, rb_xform xf, rb_float4 params)
{
    rb_geom g;
    g.type = type;
    g.xf = xf;
    g.params = params;
    g.hull = rb_hull_view_make(0);
    return g;
}

// A shape's geometry with its hull view from the world's hull pool (convex shapes and boxes).
RB_FN rb_geom rb_geom_make_pooled(int type, rb_xform xf, rb_float4 params, RB_GLOBAL const rb_float4 *hull_pool)
{
    rb_geom g = rb_geom_make(type, xf, params);
    if (type == RB_GEOM_CONVEX)
        g.hull = rb_hull_view_make(hull_pool + (int)params.y);
    else if (type == RB_GEOM_BOX && hull_pool)
        g.hull = rb_hull_view_box(hull_pool, rb_xyz(params));
    return g;
}

// Plane of a plane shape in world space from its body-local (n, offset) and the shape's world pose.
RB_FN rb_float4 rb_plane_to_world(rb_xform xf, rb_float4 plane_local)
{
    rb_float3 n = rb_rotate(xf.q, rb_xyz(plane_local));
    // a point on the local plane, n*offset, moved to world space
    rb_float3 p = rb_xform_point(xf, rb_scale(rb_xyz(plane_local), plane_local.w));
    return rb_f4_from3(n, rb_dot(n, p));
}

// World-space AABB of a finite shape, grown by `margin` on every side. Planes have none; the broad
// phase treats them apart.
RB_FN void rb_geom_aabb(rb_geom g, float margin, rb_float3 *lo, rb_float3 *hi)
{
    rb_float3 ext;
    if (g.type == RB_GEOM_SPHERE) {
        ext = rb_f3(g.params.x, g.params.x, g.params.x);
    } else if (g.type == RB_GEOM_CAPSULE) {
        rb_float3 axis = rb_rotate(g.xf.q, rb_f3(0.0f, g.params.x, 0.0f));
        float r = g.params.y;
        ext = rb_add(rb_abs3(axis), rb_f3(r, r, r));
    } else if (g.type == RB_GEOM_CONVEX) {
        rb_float3 lo0, hi0;
        rb_hull_aabb(g.hull, g.xf, &lo0, &hi0);
        float grow = margin + g.params.x;
        *lo = rb_sub(lo0, rb_f3(grow, grow, grow));
        *hi = rb_add(hi0, rb_f3(grow, grow, grow));
        return;
    } else {
        // box: |R| h
        rb_mat3 r = rb_mat3_from_quat(g.xf.q);
        rb_float3 h = rb_f3(g.params.x, g.params.y, g.params.z);
        ext = rb_f3(rb_dot(rb_abs3(r.r0), h), rb_dot(rb_abs3(r.r1), h), rb_dot(rb_abs3(r.r2), h));
    }
    ext = rb_add(ext, rb_f3(margin, margin, margin));
    *lo = rb_sub(g.xf.p, ext);
    *hi = rb_add(g.xf.p, ext);
}

// Largest distance from the shape's origin to its surface (sleep bounds, grid sizing).
RB_FN float rb_geom_bounding_radius(int type, rb_float4 params)
{
    if (type == RB_GEOM_SPHERE)
        return params.x;
    if (type == RB_GEOM_CAPSULE)
        return params.x + params.y;
    if (type == RB_GEOM_BOX)
        return rb_sqrtf(params.x * params.x + params.y * params.y + params.z * params.z);
    if (type == RB_GEOM_CONVEX)
        return params.z;
    return 0.0f;
}

#endif
