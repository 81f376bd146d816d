// What the viewer knows of the scene: every shape's geometry, local pose, body slot and colour,
// read once through the public API when the scene is loaded (and again after a reset); and, each
// frame, the bodies' poses and awake flags read in bulk and turned into instance records.
#ifndef RUBBLE_VIEW_SHAPE_CACHE_H
#define RUBBLE_VIEW_SHAPE_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "hull_mesh.h"
#include "instances.h"
#include "rubble.h"

typedef enum shape_kind {
    KIND_SPHERE = 0,
    KIND_CAPSULE,
    KIND_BOX,
    KIND_CONVEX,
    KIND_PLANE,
    KIND_COUNT,
} shape_kind;

typedef struct cached_shape {
    int body_slot;
    rb_transform local;  ///< shape pose in the body frame
    float params[4];     ///< sphere (r); capsule (half length, r); box (half extents); plane (n, offset);
                         ///< convex (rounding radius)
    rb_hull_id hull;     ///< convex: its hull
    int mesh;            ///< convex: its mesh in shape_cache.hulls (one per hull and radius)
    uint8_t color[3];    ///< awake colour
} cached_shape;

typedef struct shape_cache {
    cached_shape *shapes[KIND_COUNT];
    int counts[KIND_COUNT];

    int body_slots;         ///< rb_counters.body_slots when built
    int *runs;              ///< (first, count) pairs of consecutive live body slots, for the bulk reads
    int run_count;
    rb_transform *body_pose; ///< per slot, this frame
    bool *body_awake;
    bool *body_dynamic;
    int awake_bodies;        ///< bodies whose awake flag was set at the last update

    rb_vec3 bounds_lo, bounds_hi; ///< of the dynamic bodies (else of every finite shape), at load

    /// Convex shapes: one mesh per hull and rounding radius, however many shapes share it, read once.
    /// The convex shapes are sorted by mesh: mesh m's instances are convexes[mesh_first[m] ..
    /// + mesh_instances[m]).
    hull_mesh_set hulls;
    int *mesh_first, *mesh_instances;
    unsigned mesh_version; ///< differs between any two builds: the renderer uploads the meshes again

    // instance records, filled by shape_cache_update
    mesh_instance *boxes, *cylinders, *planes, *convexes;
    sphere_instance *spheres;
    int box_count, cylinder_count, plane_count, sphere_count, convex_count;
} shape_cache;

/// Reads every live body's shapes. Returns false with a sentence in `err` (the library's message).
bool shape_cache_build(shape_cache *c, rb_world_id world, char *err, size_t err_size);
void shape_cache_free(shape_cache *c);

/// Bulk-reads the poses and awake flags and fills the instance records. `plane_half_size` (m) sizes
/// the ground quads. Returns false with a sentence in `err`.
bool shape_cache_update(shape_cache *c, rb_world_id world, float plane_half_size, char *err, size_t err_size);

/// World pose of a body slot as of the last update.
static inline rb_transform shape_cache_body_pose(const shape_cache *c, int slot) { return c->body_pose[slot]; }

/// The colour of a shape of `kind` on the body in `slot`: a hue family per kind (boxes orange,
/// spheres blue, capsules green, convex hulls teal; static shapes grey), varied per body. sRGB 0..255.
void shape_color(shape_kind kind, int slot, rb_body_type type, uint8_t out[3]);
/// The colour of a sleeping body: desaturated and darker, same hue.
void sleeping_tint(const uint8_t in[3], uint8_t out[3]);

#endif
