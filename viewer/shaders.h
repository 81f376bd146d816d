// The GLSL 3.30 programs of the viewer and how they are built.
//
//   mesh    instanced unit meshes (boxes, capsule sides): quaternion + scale per instance, Lambert and
//           hemispherical ambient light, darkened box edges, distance fog
//   plane   the ground quads with a 1 m / 10 m grid that stays put in the world
//   sphere  ray-traced sphere impostors: a camera-facing quad per sphere, exact silhouette, normal and
//           depth per pixel (two triangles per sphere, however close)
//   line    debug lines and points (contacts, joints, the picking spring), at a given brightness
//   sky     the background gradient
#ifndef RUBBLE_VIEW_SHADERS_H
#define RUBBLE_VIEW_SHADERS_H

#include <stdbool.h>
#include <stddef.h>

#include <epoxy/gl.h>

typedef enum program_id {
    PROGRAM_MESH = 0,
    PROGRAM_PLANE,
    PROGRAM_SPHERE,
    PROGRAM_LINE,
    PROGRAM_SKY,
    PROGRAM_COUNT,
} program_id;

/// Compiles and links every program. On failure deletes what was made and writes the program's name
/// and the compiler's log to `err`.
bool shaders_build(GLuint programs[PROGRAM_COUNT], char *err, size_t err_size);
void shaders_free(GLuint programs[PROGRAM_COUNT]);

#endif
