// The heads-up display's contents: the status lines (scene, backend, device, solver, bodies,
// joints, contacts, ms per step and the per-phase split, frame rate, time scale, paused) and the help text.
// Laid out here as plain text; panel.cpp draws them with Dear ImGui over the scene.
#ifndef RUBBLE_VIEW_HUD_H
#define RUBBLE_VIEW_HUD_H

#include <stdbool.h>

#include "rubble.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What the status lines show.
typedef struct hud_status {
    const char *scene;
    rb_world_info info;
    int bodies, awake_bodies, contacts;
    int joints;           ///< shown when there are any
    double step_ms;       ///< wall time of one step, smoothed
    rb_profile phases;    ///< smoothed per-phase split, ms
    double fps;
    float time_scale;
    bool paused;
    bool picking;
    bool show_contacts;
    const char *message;  ///< transient line (screenshot written, errors), or NULL
} hud_status;

enum { HUD_MAX_LINES = 5, HUD_LINE_SIZE = 256 };

/// Which colour a status line is drawn in.
typedef enum hud_tone { HUD_TONE_TEXT, HUD_TONE_DIM, HUD_TONE_ACCENT } hud_tone;

/// Fills the status lines; returns how many (4, or 5 with a message).
int hud_status_lines(const hud_status *s, char lines[HUD_MAX_LINES][HUD_LINE_SIZE], hud_tone tones[HUD_MAX_LINES]);

/// The hint in the bottom-left corner ("h: help", and whether contacts are shown).
const char *hud_hint(const hud_status *s);

/// The controls: `count` lines of key and action.
typedef struct hud_key_help {
    const char *keys, *action;
} hud_key_help;
extern const hud_key_help hud_help[];
extern const int hud_help_count;

#ifdef __cplusplus
}
#endif

#endif
