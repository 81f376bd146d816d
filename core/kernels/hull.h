// Convex hulls as the kernels see them: a half-edge mesh stored as one record of rb_float4 in the
// world's hull pool (rb_scene.hull_pool), which the host keeps and a device backend copies as one
// buffer. Many shapes share one record: a convex shape's parameters name its record by offset.
//
// A record at pool offset o (every count and index is a small integer stored exactly as a float, so
// the record is plain float4 data on every backend; indices are relative to the record):
//
//   o + 0                 header: (V vertices, F faces, H half-edges, the host's hull slot)
//   o + 1                 (inradius: the largest ball about the hull origin inside the hull (0 when the
//                         origin is not inside), 0, 0, bounding radius of the vertices about the origin)
//   o + 2 .. + V          vertex i: (x, y, z, one half-edge leaving it), hull frame
//   then F planes         face f: (nx, ny, nz, d), unit outward normal, n . x = d on the face
//   then F face records   face f: (first half-edge, number of its half-edges, 0, 0)
//   then H half-edges     half-edge e: (origin vertex, twin, next, face); e and e ^ 1 are twins
//                         (half-edges come in pairs: the edge k is half-edges 2k and 2k + 1)
//
// A face's half-edges run counter-clockwise seen from outside (next of e follows e around its face).
// Offset 0 of every pool is the unit cube (vertices (+-1, +-1, +-1)): a box is that record viewed at
// the scale of its half-extents (rb_hull_view), so the convex routines take boxes as they are.
#ifndef RB_KERNELS_HULL_H
#define RB_KERNELS_HULL_H

#include "vec_math.h"

#define RB_HULL_MAX_VERTICES 64
// Euler's formula for a convex polyhedron with V vertices: at most 2V - 4 faces, 3V - 6 edges.
#define RB_HULL_MAX_FACES (2 * RB_HULL_MAX_VERTICES - 4)
#define RB_HULL_MAX_HALF_EDGES (2 * (3 * RB_HULL_MAX_VERTICES - 6))
#define RB_HULL_HEADER 2
// The largest record: header, vertices, planes, face records, half-edges.
#define RB_HULL_MAX_RECORD (RB_HULL_HEADER + RB_HULL_MAX_VERTICES + 2 * RB_HULL_MAX_FACES + RB_HULL_MAX_HALF_EDGES)
// The unit cube at offset 0: 8 vertices, 6 faces, 24 half-edges.
#define RB_HULL_CUBE_RECORD (RB_HULL_HEADER + 8 + 2 * 6 + 24)

// A hull as a shape uses it: its record, and the scale at which its vertices are read (1, 1, 1 for a
// convex shape; the half-extents for a box viewed as the unit cube). Only axis-aligned faces (the
// cube's) may be scaled: a plane's normal is read as stored.
typedef struct rb_hull_view {
    RB_GLOBAL const rb_float4 *rec;
    rb_float3 scale;
    int scaled; // 0: scale is (1, 1, 1)
} rb_hull_view;

RB_FN rb_hull_view rb_hull_view_make(RB_GLOBAL const rb_float4 *rec)
{
    rb_hull_view h;
    h.rec = rec;
    h.scale = rb_f3(1.0f, 1.0f, 1.0f);
    h.scaled = 0;
    return h;
}

RB_FN rb_hull_view rb_hull_view_box(RB_GLOBAL const rb_float4 *pool, rb_float3 half_extents)
{
    rb_hull_view h;
    h.rec = pool; // the unit cube at offset 0
    h.scale = half_extents;
    h.scaled = 1;
    return h;
}

RB_FN int rb_hull_vertex_count(rb_hull_view h) { return (int)h.rec[0].x; }
RB_FN int rb_hull_face_count(rb_hull_view h) { return (int)h.rec[0].y; }
RB_FN int rb_hull_half_edge_count(rb_hull_view h) { return (int)h.rec[0].z; }

// Radius of the largest ball about the hull origin that the hull holds.
RB_FN float rb_hull_inradius(rb_hull_view h) { return h.scaled ? rb_minf(h.scale.x, rb_minf(h.scale.y, h.scale.z)) : h.rec[1].x; }

// Largest distance from the hull origin to a vertex (at scale).
RB_FN float rb_hull_bounding_radius(rb_hull_view h)
{
    return h.scaled ? rb_len(h.scale) : h.rec[1].w;
}

RB_FN rb_float3 rb_hull_vertex(rb_hull_view h, int i)
{
    rb_float3 v = rb_xyz(h.rec[RB_HULL_HEADER + i]);
    return h.scaled ? rb_mul(v, h.scale) : v;
}

// A half-edge leaving vertex i.
RB_FN int rb_hull_vertex_edge(rb_hull_view h, int i) { return (int)h.rec[RB_HULL_HEADER + i].w; }

// Face f's plane (unit normal, d) in the hull frame.
RB_FN rb_float4 rb_hull_plane(rb_hull_view h, int f)
{
    rb_float4 p = h.rec[RB_HULL_HEADER + rb_hull_vertex_count(h) + f];
    if (h.scaled) // an axis-aligned face of the unit cube: d = |n| . scale
        p.w = rb_dot(rb_abs3(rb_xyz(p)), h.scale);
    return p;
}

RB_FN int rb_hull_face_first_edge(rb_hull_view h, int f)
{
    return (int)h.rec[RB_HULL_HEADER + rb_hull_vertex_count(h) + rb_hull_face_count(h) + f].x;
}

RB_FN int rb_hull_face_edge_count(rb_hull_view h, int f)
{
    return (int)h.rec[RB_HULL_HEADER + rb_hull_vertex_count(h) + rb_hull_face_count(h) + f].y;
}

RB_FN rb_float4 rb_hull_half_edge(rb_hull_view h, int e)
{
    return h.rec[RB_HULL_HEADER + rb_hull_vertex_count(h) + 2 * rb_hull_face_count(h) + e];
}
RB_FN int rb_hull_edge_origin(rb_hull_view h, int e) { return (int)rb_hull_half_edge(h, e).x; }
RB_FN int rb_hull_edge_twin(rb_hull_view h, int e) { return (int)rb_hull_half_edge(h, e).y; }
RB_FN int rb_hull_edge_next(rb_hull_view h, int e) { return (int)rb_hull_half_edge(h, e).z; }
RB_FN int rb_hull_edge_face(rb_hull_view h, int e) { return (int)rb_hull_half_edge(h, e).w; }

// The vertex farthest along direction d (hull frame); ties go to the lowest index.
RB_FN int rb_hull_support_index(rb_hull_view h, rb_float3 d)
{
    int n = rb_hull_vertex_count(h), best = 0;
    float best_d = rb_dot(rb_hull_vertex(h, 0), d);
    for (int i = 1; i < n; ++i) {
        float s = rb_dot(rb_hull_vertex(h, i), d);
        if (s > best_d) {
            best_d = s;
            best = i;
        }
    }
    return best;
}

// World-space bounding box of a hull at pose xf, from its vertices (exact for the polyhedron).
RB_FN void rb_hull_aabb(rb_hull_view h, rb_xform xf, rb_float3 *lo, rb_float3 *hi)
{
    rb_float3 mn = rb_f3(RB_FLT_MAX, RB_FLT_MAX, RB_FLT_MAX), mx = rb_neg(mn);
    int n = rb_hull_vertex_count(h);
    for (int i = 0; i < n; ++i) {
        rb_float3 v = rb_rotate(xf.q, rb_hull_vertex(h, i));
        mn = rb_min3(mn, v);
        mx = rb_max3(mx, v);
    }
    *lo = rb_add(xf.p, mn);
    *hi = rb_add(xf.p, mx);
}

#endif
