// rubble-view's text and side panel, drawn with Dear ImGui (panel.cpp, the viewer's one C++ file):
// the heads-up status lines and help (contents from hud.c) in DejaVu Sans, and the side panel (F1 or
// Tab) with the scene picker, what is drawn (joints, contacts), the solver settings applied to the
// running world, and a graph of the last steps' per-phase timings.
#ifndef RUBBLE_VIEW_PANEL_H
#define RUBBLE_VIEW_PANEL_H

#include <stdbool.h>
#include <stddef.h>

#include <SDL.h>

#include "hud.h"
#include "rubble.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The font the text is drawn in, loaded at run time (Debian: fonts-dejavu-core).
#define UI_FONT_PATH "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

/// What the panel shows of the simulation.
typedef struct panel_view {
    rb_world_id world;         ///< the settings shown are read from it, and changes applied to it
    const char *scene;         ///< the scene shown: a file or a built-in name
    const rb_profile *history; ///< the last steps' timings (ms): a ring of `history_capacity` entries
    int history_count;         ///< how many are filled
    int history_next;          ///< the slot the next step goes to (the oldest once the ring is full)
    int history_capacity;
    bool *show_joints;         ///< the "Joints" checkbox, as `j`
    bool *show_contacts;       ///< the "Contacts" checkbox, as `c`
    int joints;                ///< the world's joints
    int joints_off;            ///< of which switched off or broken; -1: not counted (joints hidden)
} panel_view;

/// Starts Dear ImGui on the window's OpenGL context, with the text size chosen for a framebuffer
/// `width` pixels wide. DejaVu Sans is read from UI_FONT_PATH (or $RUBBLE_VIEW_FONT); when it is
/// missing, ImGui's built-in font is used and a note says so on stdout. Lists the scenes for the
/// picker: the built-in ones and the .yaml files of the scene directory ($RUBBLE_SCENE_DIR, else
/// data/scenes next to the executable's build or install tree, else the source tree's).
bool ui_init(SDL_Window *window, SDL_GLContext context, int width, char *err, size_t err_size);
void ui_shutdown(void);

/// Hands an event to ImGui. Returns true when ImGui takes it (a click or the wheel over the panel,
/// typing into one of its fields): the viewer then leaves it alone.
bool ui_handle_event(const SDL_Event *e);

/// One frame of text: begin, draw any of status / help / panel, end.
void ui_begin_frame(void);
void ui_draw_status(const hud_status *s);
void ui_draw_help(void);
/// The side panel, docked at the right. Settings changed in it are applied to v->world at once.
/// When a scene is picked, writes it to `scene` and returns true: the caller loads it in a new world.
/// `*open` turns false when the panel's close button is clicked.
bool ui_draw_panel(const panel_view *v, bool *open, char *scene, size_t scene_size);
/// Draws what was laid out into the bound framebuffer, blended over the scene; with `draw` false the
/// frame is only laid out (windows that size themselves need one frame to measure their contents).
void ui_end_frame(bool draw);

/// Picks a scene of the panel's list by name, as a click on it does: the built-in name, the file's
/// name with or without ".yaml", or its path. Returns false if the list has no such scene.
bool ui_pick_scene(const char *name, char *scene, size_t scene_size);
/// Appends the list's names to `out` separated by ", " (for an error message).
void ui_scene_names(char *out, size_t out_size);

#ifdef __cplusplus
}
#endif

#endif
