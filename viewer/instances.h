// Per-instance data the renderer uploads each frame: one record per drawn shape piece. Plain C, no
// GL types, so shape_cache.c fills them without knowing about OpenGL.
#ifndef RUBBLE_VIEW_INSTANCES_H
#define RUBBLE_VIEW_INSTANCES_H

#include <stdint.h>

/// A unit mesh placed in the world: world = position + rotation * (scale * vertex).
/// Boxes: the cube [-1, 1]³ scaled by the half extents. Capsule sides: the cylinder of radius 1 and
/// y in [-1, 1] scaled by (radius, half length, radius). Planes: the grid quad in local xz, scale x
/// its half size, rotation taking +y to the plane normal, position a point on the plane.
typedef struct mesh_instance {
    float position[3];
    float rotation[4]; ///< unit quaternion (x, y, z, w)
    float scale[3];
    uint8_t color[4];  ///< sRGB, alpha unused
} mesh_instance;

/// A sphere drawn as a camera-facing quad, ray-traced per pixel (an impostor): spheres and the end
/// caps of capsules.
typedef struct sphere_instance {
    float center[3];
    float radius;
    uint8_t color[4];
} sphere_instance;

/// A vertex of a debug line or point (contacts, the picking spring).
typedef struct line_vertex {
    float position[3];
    uint8_t color[4];
} line_vertex;

#endif
