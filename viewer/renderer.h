// Draws a frame: the sky, one instanced draw per shape kind (boxes, capsule sides, spheres and
// capsule ends as impostors, ground planes) and per convex hull mesh, debug lines and points. Renders into its own
// framebuffer (multisampled, then resolved), so frames can be read back for screenshots whether or
// not the window is visible, and blits the result to the window.
#ifndef RUBBLE_VIEW_RENDERER_H
#define RUBBLE_VIEW_RENDERER_H

#include <stdbool.h>
#include <stdint.h>

#include <epoxy/gl.h>

#include "camera.h"
#include "shaders.h"
#include "shape_cache.h"

typedef struct gpu_mesh {
    GLuint vao, vertices, indices, instances;
    GLsizei index_count;
} gpu_mesh;

typedef struct renderer {
    GLuint programs[PROGRAM_COUNT];
    gpu_mesh cube, cylinder, plane;
    gpu_mesh hulls;          // every hull mesh of the shape cache, one after another (32-bit indices)
    unsigned hull_version;   // the shape cache's mesh_version uploaded (0: none)
    GLuint sphere_vao, sphere_corners, sphere_instances;
    GLuint line_vao, line_vertices;
    GLuint empty_vao; // the sky draws from gl_VertexID alone

    int width, height, samples;
    GLuint scene_fbo, scene_color, scene_depth;    // drawn into (multisampled when samples > 0)
    GLuint resolve_fbo, resolve_color;             // single-sampled copy: shown and read back
} renderer;

/// Creates programs, meshes and framebuffers of `width` x `height` with up to `samples` MSAA samples.
/// Returns false with a sentence in `err`.
bool renderer_init(renderer *r, int width, int height, int samples, char *err, size_t err_size);
bool renderer_resize(renderer *r, int width, int height, char *err, size_t err_size);
void renderer_free(renderer *r);

/// Binds the scene framebuffer, clears it and draws the sky.
void renderer_begin(renderer *r);
/// Draws every shape in the cache (instances filled by shape_cache_update).
void renderer_draw_shapes(renderer *r, const camera *c, const shape_cache *shapes);
/// Debug geometry: pairs of vertices as lines, or points; hidden by the shapes in front of them, or
/// `on_top` of everything.
void renderer_draw_lines(renderer *r, const camera *c, const line_vertex *v, int count, bool on_top);
void renderer_draw_points(renderer *r, const camera *c, const line_vertex *v, int count, float size_px, bool on_top);
/// The same seen through the shapes: at full brightness where nothing hides them, at `hidden` times
/// their brightness where a shape does (the joints). Points are discs `world_size` metres across,
/// between `min_px` and `max_px` pixels.
void renderer_draw_lines_xray(renderer *r, const camera *c, const line_vertex *v, int count, float hidden);
void renderer_draw_points_xray(renderer *r, const camera *c, const line_vertex *v, int count, float world_size,
                               float min_px, float max_px, float hidden);
/// Resolves the frame and copies it to the window's framebuffer (same size).
void renderer_finish(renderer *r);
/// Reads the resolved frame as RGBA rows, bottom row first (width * height * 4 bytes).
void renderer_read_pixels(renderer *r, uint8_t *rgba);

#endif
