// Triangle meshes of convex hulls, read once through the public API (rb_hull_get_vertices,
// rb_hull_get_face) and kept one after another in one set, so that the renderer uploads them as one
// vertex buffer and one index buffer. A sharp hull (radius 0) is its faces, each a fan of triangles
// with the face's normal: flat shading. A rounded one (rb_convex.radius > 0) is the hull grown by the
// radius: the faces moved out along their normals, each edge a strip of a cylinder between its two
// faces, each corner a patch of a sphere between the faces around it (smooth normals there).
// Window-free (no OpenGL).
#ifndef RUBBLE_VIEW_HULL_MESH_H
#define RUBBLE_VIEW_HULL_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "meshes.h"
#include "rubble.h"

/// Segments of the arc that rounds an edge, from one face's normal to the other's.
#define HULL_ARC_SEGMENTS 4

typedef struct hull_mesh_set {
    mesh_vertex *vertices;  ///< hull frame: position (m) and unit normal
    uint32_t *indices;      ///< triangles, counter-clockwise seen from outside, into `vertices`
    int vertex_count, index_count;
    int vertex_capacity, index_capacity;
    int mesh_count;
    int *first_index;       ///< per mesh: its triangles are indices[first_index .. + index_counts)
    int *index_counts;
    int mesh_capacity;
} hull_mesh_set;

/// Appends the mesh of `hull` grown by `radius` (m, >= 0) as mesh number set->mesh_count. Returns
/// false with a sentence in `err` (the library's message, or out of memory); the set is unchanged then.
bool hull_mesh_set_add(hull_mesh_set *set, rb_hull_id hull, float radius, char *err, size_t err_size);
void hull_mesh_set_free(hull_mesh_set *set);

#endif
