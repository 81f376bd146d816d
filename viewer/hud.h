// The heads-up display: text drawn with the built-in bitmap font (font.c) over the scene. The
// status lines (backend, device, solver, bodies, contacts, ms per step and the per-phase split, frame
// rate, time scale) and the help overlay are laid out here.
#ifndef RUBBLE_VIEW_HUD_H
#define RUBBLE_VIEW_HUD_H

#include <stdbool.h>
#include <stdint.h>

#include <epoxy/gl.h>

#include "rubble.h"

typedef struct text_vertex {
    float pixel[2];
    float uv[2];
    uint8_t color[4];
} text_vertex;

typedef struct hud {
    GLuint program, vao, vbo, font_texture;
    text_vertex *vertices;
    int count, capacity;
    int width, height; ///< framebuffer size, pixels
    int scale;         ///< font pixels per texel
} hud;

/// What the status lines show.
typedef struct hud_status {
    const char *scene;
    rb_world_info info;
    int bodies, awake_bodies, contacts;
    double step_ms;       ///< wall time of one step, smoothed
    rb_profile phases;    ///< smoothed per-phase split, ms
    double fps;
    float time_scale;
    bool paused;
    bool picking;
    bool show_contacts;
    const char *message;  ///< transient line (screenshot written, errors), or NULL
} hud_status;

bool hud_init(hud *h, GLuint text_program, char *err, size_t err_size);
void hud_free(hud *h);

/// Starts a frame of text for a framebuffer of `width` x `height` pixels.
void hud_begin(hud *h, int width, int height);
/// Queues text with its top-left corner at pixel (x, y).
void hud_text(hud *h, float x, float y, const char *text, const uint8_t color[4]);
/// Queues a filled rectangle.
void hud_rect(hud *h, float x, float y, float w, float hgt, const uint8_t color[4]);
float hud_text_width(const hud *h, const char *text);
float hud_line_height(const hud *h);
/// Draws what was queued (into the bound framebuffer), blended over the scene.
void hud_end(hud *h);

/// The status lines in the top-left corner, and the "h: help" hint.
void hud_draw_status(hud *h, const hud_status *s);
/// The controls, centred.
void hud_draw_help(hud *h);

#endif
