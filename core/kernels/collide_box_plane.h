// Narrow phase: box against plane.
#ifndef RB_KERNELS_COLLIDE_BOX_PLANE_H
#define RB_KERNELS_COLLIDE_BOX_PLANE_H

#include "manifold.h"
#include "shape_geom.h"

// Box A (params = half extents) against plane B (params = world (n, offset), solid where
// dot(n, x) <= offset). The normal is -n.
// The candidates are the four vertices of the incident face, the box face whose normal is most
// anti-parallel to n: it holds the lowest vertex and the lowest edge, and its four corners are the
// support polygon of a box resting on the plane. (Taking all eight vertices within the margin instead
// lets a top vertex of a thin, slightly tilted plate win a place over a bottom corner.) Each vertex
// closer than `margin` gives a point midway between the vertex and the plane.
// Vertex i sits at local (i & 1 ? +hx : -hx, i & 2 ? +hy : -hy, i & 4 ? +hz : -hz); its id is i.
RB_FN void rb_collide_box_plane(const rb_geom *a, const rb_geom *b, float margin, rb_manifold *m)
{
    rb_float3 pn = rb_xyz(b->params);
    rb_mat3 r = rb_mat3_from_quat(a->xf.q);
    // box axes in world, scaled by the half extents (columns of R, times h)
    rb_float3 ax = rb_scale(rb_f3(r.r0.x, r.r1.x, r.r2.x), a->params.x);
    rb_float3 ay = rb_scale(rb_f3(r.r0.y, r.r1.y, r.r2.y), a->params.y);
    rb_float3 az = rb_scale(rb_f3(r.r0.z, r.r1.z, r.r2.z), a->params.z);
    rb_float3 c = a->xf.p;
    // height of the centre above the plane and each axis' contribution to a vertex' height
    float hc = rb_dot(pn, c) - b->params.w;
    float h3[3];
    h3[0] = rb_dot(pn, ax);
    h3[1] = rb_dot(pn, ay);
    h3[2] = rb_dot(pn, az);
    // incident face: the axis whose unit direction is most aligned with n (ties: lower axis), on the
    // side facing the plane
    float u0 = rb_fabsf(h3[0]) / a->params.x, u1 = rb_fabsf(h3[1]) / a->params.y, u2 = rb_fabsf(h3[2]) / a->params.z;
    int axis = 0;
    if (u1 > u0)
        axis = 1;
    if (u2 > (axis == 0 ? u0 : u1))
        axis = 2;
    unsigned int face_bit = 1u << axis;
    unsigned int face_side = h3[axis] > 0.0f ? 0u : face_bit; // the side whose vertices are lower

    m->normal = rb_neg(pn);
    m->count = 0;
    for (int i = 0; i < 8; ++i) {
        if (((unsigned int)i & face_bit) != face_side)
            continue;
        float sx = (i & 1) ? 1.0f : -1.0f;
        float sy = (i & 2) ? 1.0f : -1.0f;
        float sz = (i & 4) ? 1.0f : -1.0f;
        float h = hc + sx * h3[0] + sy * h3[1] + sz * h3[2];
        if (h < margin) {
            rb_float3 v = rb_mad(rb_mad(rb_mad(c, sx, ax), sy, ay), sz, az);
            // vertex v, plane point v - n h; midway
            rb_manifold_point *p = &m->points[m->count];
            p->point = rb_mad(v, -0.5f * h, pn);
            p->separation = h;
            p->id = (unsigned int)i;
            m->count++;
        }
    }
}

#endif
