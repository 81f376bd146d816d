// Building convex hulls on the host: quickhull over a point cloud into a half-edge mesh, its mass
// properties, and its record in the kernels' layout (core/kernels/hull.h). core/hull.c keeps the
// world's hulls and calls these; the tests call them directly.
#ifndef RB_CORE_HULL_BUILD_H
#define RB_CORE_HULL_BUILD_H

#include <stddef.h>

#include "kernels/hull.h"

// A hull as the builder leaves it: the same half-edge mesh as the record, in plain arrays.
// Half-edges 2k and 2k + 1 are twins; a face's half-edges run counter-clockwise seen from outside.
typedef struct rb_hull_mesh {
    int vertex_count, face_count, half_edge_count;
    rb_float3 vertex[RB_HULL_MAX_VERTICES];
    int vertex_edge[RB_HULL_MAX_VERTICES];      // a half-edge leaving the vertex
    rb_float4 plane[RB_HULL_MAX_FACES];         // unit outward normal, d = n . x on the face
    int face_edge[RB_HULL_MAX_FACES];           // first half-edge of the face
    int face_edge_count[RB_HULL_MAX_FACES];     // its number of half-edges (= vertices), >= 3
    int edge_origin[RB_HULL_MAX_HALF_EDGES];
    int edge_twin[RB_HULL_MAX_HALF_EDGES];
    int edge_next[RB_HULL_MAX_HALF_EDGES];
    int edge_face[RB_HULL_MAX_HALF_EDGES];
} rb_hull_mesh;

// Mass properties of the solid, uniform density: volume, centroid, inertia per unit mass about the
// centroid as tensor entries (xx, yy, zz, xy, xz, yz; the off-diagonal ones are -integral(x y) / V and
// so on, the signs included).
typedef struct rb_hull_mass {
    double volume;
    double centroid[3];
    double inertia[6];
} rb_hull_mass;

// The hull of points[0 .. count): welds points within `weld` of each other, merges faces whose planes
// agree within `weld`, and keeps at most `max_vertices` (4 .. RB_HULL_MAX_VERTICES) vertices. Returns 1
// and fills *out, or 0 with a sentence in why[0 .. why_size) saying what is wrong with the input
// (non-finite point, fewer than 4 distinct points, all points on a line or in a plane within `weld`).
// Work and memory are bounded for any count (the caller caps count).
int rb_hull_build(const rb_float3 *points, int count, float weld, int max_vertices, rb_hull_mesh *out, char *why,
                  size_t why_size);

// The mesh of the unit cube (vertices (+-1, +-1, +-1)), which every pool holds at offset 0.
void rb_hull_unit_cube(rb_hull_mesh *out);

// Mass properties of the solid polyhedron (divergence theorem over the faces' triangles, in double).
void rb_hull_mass_properties(const rb_hull_mesh *m, rb_hull_mass *out);

// Number of rb_float4 in the mesh's record, and the record itself (core/kernels/hull.h's layout).
int rb_hull_record_size(const rb_hull_mesh *m);
void rb_hull_write_record(const rb_hull_mesh *m, rb_float4 *rec);

// Largest distance from the origin to a vertex.
float rb_hull_mesh_radius(const rb_hull_mesh *m);

#endif
