// The standard benchmark scenes of docs/bench-scenes.md as the CLI sees them (names, pen size) and
// the quality metrics `rubble bench` reports after the timed steps.
#ifndef RUBBLE_CLI_SCENE_QUALITY_H
#define RUBBLE_CLI_SCENE_QUALITY_H

#include <stdbool.h>

#include "body_state.h"
#include "joint_scenes.h" // bench/compare/: the jointed scenes' data and quality formulas, shared with ODE and Bullet
#include "rubble.h"

typedef enum standard_scene_kind {
    SCENE_PYRAMID,
    SCENE_STACK,
    SCENE_PILE,
    SCENE_BOXES,
    SCENE_ROCKS,
    SCENE_CHAIN,
    SCENE_RAGDOLLS,
} standard_scene_kind;

typedef struct standard_scene {
    standard_scene_kind kind;
    int pile_size;        ///< S of pile:S (pile is 20); 0 for the other scenes
    float pen_half_width; ///< m, inner half-width L of the pen (pile: 12 S / 20, boxes and rocks: 12); 0 without a pen
} standard_scene;

/// Recognises "pyramid", "stack", "pile", "pile:S", "boxes", "rocks", "chain", "ragdolls". Returns 1 and fills
/// `out` for those, 0 for any other name, -1 for "pile:" followed by anything but a whole number >= 1.
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
    bool has_min_y;        ///< boxes, rocks
    double min_y;          ///< m, lowest dynamic body centre
    bool has_hull_ground;  ///< rocks: max_ground_penetration from the hulls' vertices, and moving_final
    long moving_final;     ///< dynamic bodies faster than 0.1 m/s
    double max_speed_final; ///< m/s, largest linear speed of a dynamic body (every scene)
    bool has_joints;       ///< chain, ragdolls: joint_scenes.h's fields (joint_watch_report), which bring
                           ///< their own escaped and min_y
    scn_quality joints;    ///< from the final poses
    scn_run joints_run;    ///< chain: the maxima over every step (joint_watch_step)
} scene_quality;

/// The jointed scenes' quality (bench-scenes.md "Jointed scenes"), measured by joint_scenes.h from the
/// poses read back through the bulk API: the scene's description, where its bodies are, and buffers.
typedef struct joint_watch {
    scn_scene scene;
    int first_slot;          ///< the world's slot of the scene's body 0 (its bodies are the last created)
    rb_transform *transform; ///< per scene body, read back
    rb_vec3 *linear, *angular;
    scn_pose *pose;
    scn_run run;             ///< maxima over the steps passed to joint_watch_step
} joint_watch;

/// For a world that holds `scene` (chain or ragdolls) as rb_build_standard_scene built it. Returns
/// RB_OK, RB_ERR_INVALID_ARGUMENT for another scene, RB_ERR_OUT_OF_MEMORY, or a status of the world.
rb_status joint_watch_init(joint_watch *jw, rb_world_id world, const standard_scene *scene);
/// The quality of the world's poses now.
rb_status joint_watch_measure(joint_watch *jw, rb_world_id world, scn_quality *out);
/// Measures now and adds the result to the run's maxima (after each step, outside the timing).
rb_status joint_watch_step(joint_watch *jw, rb_world_id world);
void joint_watch_free(joint_watch *jw);

/// `start` is the state before the steps (only read for pyramid and stack; may be NULL for the
/// others), `end` the state after them, in the same slots. Sphere radii are read from `world`. For
/// chain and ragdolls `joints` (may be NULL for the other scenes) measures the joints.
rb_status scene_quality_measure(rb_world_id world, const standard_scene *scene, const body_state *start,
                                const body_state *end, joint_watch *joints, scene_quality *out);

/// The jointed scene's fields of the JSON line, in bench-scenes.md's order, as emit(ctx, key, value)
/// (scn_report); max_speed_final is the caller's.
void joint_watch_report(const joint_watch *jw, const scene_quality *q, scn_emit_fn emit, void *ctx);

#endif
