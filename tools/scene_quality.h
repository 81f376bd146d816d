// The standard benchmark scenes of docs/bench-scenes.md as the CLI sees them (names, pen size) and
// the quality metrics `rubble bench` reports after the timed steps.
#ifndef RUBBLE_CLI_SCENE_QUALITY_H
#define RUBBLE_CLI_SCENE_QUALITY_H

#include <stdbool.h>

#include "body_state.h"
#include "rubble.h"

typedef enum standard_scene_kind {
    SCENE_PYRAMID,
    SCENE_STACK,
    SCENE_PILE,
    SCENE_BOXES,
} standard_scene_kind;

typedef struct standard_scene {
    standard_scene_kind kind;
    int pile_size;        ///< S of pile:S (pile is 20); 0 for the other scenes
    float pen_half_width; ///< m, inner half-width L of the pen (pile: 12 S / 20, boxes: 12); 0 without a pen
} standard_scene;

/// Recognises "pyramid", "stack", "pile", "pile:S", "boxes". Returns 1 and fills `out` for those,
/// 0 for any other name, -1 for "pile:" followed by anything but a whole number >= 1.
int standard_scene_parse(const char *name, standard_scene *out);

/// Values are NaN where a body's state was not finite (printed as null). Fields whose `has_` flag
/// is false do not apply to the scene.
typedef struct scene_quality {
    bool has_drift;        ///< pyramid, stack
    double max_drift;      ///< m, largest distance of a dynamic body from its start
    double top_y;          ///< m, final y of the last dynamic body (the top cube)
    bool has_penetration;  ///< pile
    double max_penetration;        ///< m, largest r_a + r_b - distance over sphere pairs, 0 if none overlap
    double max_ground_penetration; ///< m, largest r - y, 0 if none below the ground's surface
    bool has_escaped;      ///< pile, boxes
    long escaped;          ///< dynamic bodies with |x| > L, |z| > L, y < 0 or a non-finite position
    bool has_min_y;        ///< boxes
    double min_y;          ///< m, lowest dynamic body centre
    double max_speed_final; ///< m/s, largest linear speed of a dynamic body (every scene)
} scene_quality;

/// `start` is the state before the steps (only read for pyramid and stack; may be NULL for the
/// others), `end` the state after them, in the same slots. Sphere radii are read from `world`.
rb_status scene_quality_measure(rb_world_id world, const standard_scene *scene, const body_state *start,
                                const body_state *end, scene_quality *out);

#endif
