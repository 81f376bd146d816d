// Joints drawn over the scene (docs/viewer.md, "Joints"): read through the public API each frame and
// turned into debug lines and points. Every joint gets a point at each anchor (A's copy and B's, apart
// when the joint is stretched) and a line from each body's centre to its anchor; then, by type, the
// hinge's axis (ẑ) and limit arc with a tick at the current angle, the cone-twist's cone about A's x̂
// with a mark along B's x̂, the slider's axis with its [lower, upper] range, and the line between a
// distance or spring joint's anchors (a spring as a zig-zag). A's side is magenta, B's cyan; a joint
// switched off or broken is grey. The geometry helpers are pure, for tests/test_viewer_math.c.
#ifndef RUBBLE_VIEW_JOINT_DRAW_H
#define RUBBLE_VIEW_JOINT_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#include "camera.h"
#include "instances.h"
#include "rubble.h"
#include "shape_cache.h"

/// The joints' colours (sRGB). None falls in a colour range the viewer's tests look for: not orange
/// like the boxes, not the text's or the picking spring's near-white, not the panel's (28, 32, 42).
typedef enum joint_color {
    JOINT_COLOR_A = 0, ///< A's anchor and link, the limits (they live in A's frame): magenta
    JOINT_COLOR_B,     ///< B's anchor and link, where B is now (hinge tick, B's x̂, slider position): cyan
    JOINT_COLOR_SPRING, ///< a spring's zig-zag: light pink
    JOINT_COLOR_OFF,   ///< everything of a joint switched off or broken: grey
    JOINT_COLOR_COUNT,
} joint_color;
extern const uint8_t joint_colors[JOINT_COLOR_COUNT][3];

/// Where a shape hides a joint's lines they are drawn at this fraction of their brightness.
#define JOINT_HIDDEN_BRIGHTNESS 0.55f

typedef struct joint_draw {
    rb_joint_id *ids;
    int id_capacity;
    line_vertex *lines;     ///< GL_LINES pairs
    int line_count, line_capacity;
    line_vertex *anchors;   ///< the points below, in one array
    line_vertex *anchors_a; ///< one point per joint: A's anchor
    line_vertex *anchors_b; ///< one point per joint: B's anchor
    int anchor_count, anchor_capacity;
    float marker_size;      ///< m: how large to draw A's anchor (half that for B's), from the gizmos' sizes
    int joints;             ///< live joints at the last update
    int inactive;           ///< of which switched off or broken
} joint_draw;

/// Reads every joint of `world` and fills the lines and points. Bodies' centres come from `shapes`
/// (this frame's poses); gizmo sizes follow the bodies' size and the camera's distance, and a joint
/// whose gizmo would be smaller than a few pixels on screen is drawn as its anchors alone. Returns false
/// when out of memory or the world cannot be read (nothing is drawn then).
bool joint_draw_update(joint_draw *d, rb_world_id world, const shape_cache *shapes, const camera *cam);
void joint_draw_free(joint_draw *d);
// Grows *p to hold n elements of `size` bytes (doubling from 256); false on allocation failure. The
// viewer's growing arrays (joints, contacts, lines) share it.
bool view_reserve(void **p, int *capacity, int n, size_t size);

// ---- geometry (pure) ----

/// The point at `angle` (rad) on the circle of `radius` about the frame's ẑ through `center`: angle 0
/// on the frame's ŷ, turning right-handed about ẑ, as a hinge's angle does (B's ŷ is there).
rb_vec3 joint_hinge_arc_point(rb_vec3 center, rb_quat frame, float radius, float angle);

/// A cone-twist's swing limit (rad) for a swing about the unit axis n = ny ŷ + nz ẑ across x̂, as the
/// solver has it: swing_span2 about ŷ, swing_span1 about ẑ, between them 1/L² = (ny/s2)² + (nz/s1)².
float joint_cone_swing_limit(float swing_span1, float swing_span2, float ny, float nz);

/// The unit direction on the cone's rim at `phi` (rad): the frame's x̂ swung by its limit about the
/// axis n = cos φ ŷ + sin φ ẑ (world). φ = 0 swings about ŷ by swing_span2, φ = π/2 about ẑ by swing_span1.
rb_vec3 joint_cone_rim_direction(rb_quat frame, float swing_span1, float swing_span2, float phi);

/// A zig-zag of `teeth` teeth from a to b, `amplitude` to either side along the unit `side`: writes
/// 2 teeth + 2 points (a, the corners, b) to `out`, to be joined in order; returns how many.
int joint_zigzag(rb_vec3 a, rb_vec3 b, rb_vec3 side, float amplitude, int teeth, rb_vec3 *out);

#endif
