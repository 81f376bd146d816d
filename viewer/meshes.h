// The unit meshes every shape is drawn from, built in code: the cube [-1, 1]³ (boxes), the open
// cylinder of radius 1 with y in [-1, 1] (capsule sides; the ends are sphere impostors), the quad
// y = 0 with x, z in [-1, 1] (planes, with a grid drawn by the shader) and the corner quad of the
// sphere impostors.
#ifndef RUBBLE_VIEW_MESHES_H
#define RUBBLE_VIEW_MESHES_H

#include <stdint.h>

#define MESH_MAX_VERTICES 128
#define MESH_MAX_INDICES 384
#define CYLINDER_SEGMENTS 32

typedef struct mesh_vertex {
    float position[3];
    float normal[3];
} mesh_vertex;

typedef struct mesh {
    mesh_vertex vertices[MESH_MAX_VERTICES];
    uint16_t indices[MESH_MAX_INDICES]; ///< counter-clockwise triangles seen from outside
    int vertex_count;
    int index_count;
} mesh;

void mesh_cube(mesh *m);
void mesh_cylinder(mesh *m);
void mesh_plane_quad(mesh *m);
/// The impostor quad: 4 corners (±1, ±1) as a triangle strip, in vertices[i].position[0..1].
void mesh_impostor_quad(mesh *m);

#endif
