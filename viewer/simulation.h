// The world behind the window: created from the options, loaded from a scene file or a built-in
// scene, stepped at the world's fixed time step as fast as real time times the time scale asks
// (capped per frame, so a slow step makes the simulation run slower than real time instead of
// spiralling), paused, single-stepped, reset. Keeps smoothed step timings for the heads-up line.
#ifndef RUBBLE_VIEW_SIMULATION_H
#define RUBBLE_VIEW_SIMULATION_H

#include <stdbool.h>

#include "options.h"

enum { SIMULATION_HISTORY = 200 }; ///< steps whose per-phase timings are kept (the panel's graph)

typedef struct simulation {
    rb_world_id world;
    const viewer_options *options;
    char scene[1024];       ///< the scene shown: options->scene, or the one picked in the panel
    float dt;               ///< s per rb_world_step (the world's time step)
    double accumulator;     ///< simulated seconds owed to real time
    float time_scale;       ///< simulated seconds per real second
    bool paused;
    int pending_steps;      ///< single steps asked for while paused
    long steps;             ///< steps since the scene was loaded
    double step_ms;         ///< wall time of one step, smoothed
    rb_profile phases;      ///< per-phase split of a step (ms), smoothed
    rb_profile history[SIMULATION_HISTORY]; ///< the last steps' per-phase timings (ms), unsmoothed: a ring
    int history_count;      ///< how many of `history` are filled
    int history_next;       ///< where the next step's timings go
    rb_world_info info;
    bool warned_numeric;
    char error[2048];       ///< why the last call failed
} simulation;

/// Called before every step with the step's length (the picking spring applies its force here).
typedef void (*simulation_hook)(void *context, float dt);

/// Creates the world and loads the scene. On failure returns false with the sentence in s->error.
bool simulation_start(simulation *s, const viewer_options *o);
void simulation_stop(simulation *s);
/// Destroys the world and loads the scene again; the time scale and pause state are kept.
bool simulation_reset(simulation *s);
/// Destroys the world and loads `scene` (a file or a built-in name) in a new one, with the same
/// options; the time scale and pause state are kept. If it cannot be loaded, returns false with the
/// sentence in s->error, and the world is gone (reload the previous scene to go on).
bool simulation_switch_scene(simulation *s, const char *scene);

/// Steps as many times as `real_seconds` of wall time times the time scale need (or the pending
/// single steps when paused), at most 8 steps or about 40 ms of stepping per call; what does not fit
/// is dropped. Returns the steps taken, or -1 with s->error set if a step failed.
int simulation_advance(simulation *s, double real_seconds, simulation_hook hook, void *context);
/// Exactly `n` steps (headless frames). Returns n, or -1 with s->error set.
int simulation_step(simulation *s, int n, simulation_hook hook, void *context);

/// Monotonic clock in seconds.
double simulation_now(void);

#endif
