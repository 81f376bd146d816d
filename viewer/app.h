// rubble-view as a whole: the window, the renderer, the simulated world, the camera and the mouse;
// the interactive loop (events, stepping, drawing) and the headless one (N frames, a screenshot).
#ifndef RUBBLE_VIEW_APP_H
#define RUBBLE_VIEW_APP_H

#include "camera.h"
#include "hud.h"
#include "joint_draw.h"
#include "options.h"
#include "panel.h"
#include "picking.h"
#include "renderer.h"
#include "shape_cache.h"
#include "simulation.h"
#include "window.h"

typedef struct app {
    const viewer_options *options;
    simulation sim;
    gl_window win;
    renderer gfx;
    shape_cache shapes;
    camera cam;
    pick_state pick;

    bool running;
    int exit_status;        ///< of the interactive loop: VIEW_EXIT_FAIL after a failed reset or resize
    bool show_contacts, show_help, show_hud;
    bool show_joints;       ///< `j`, the panel's checkbox; off with --no-joints
    bool show_panel;        ///< the side panel (F1, Tab, --panel)
    bool ui_started;        ///< Dear ImGui is set up (panel.h)
    char picked_scene[1024]; ///< a scene picked in the panel, loaded after the frame (empty: none)
    bool ui_laid_out;       ///< its first frame was laid out once before drawing (windows measure themselves)
    bool screenshot_pending; ///< `s` was pressed: write the next frame drawn
    bool orbiting, panning;
    float mouse_x, mouse_y; ///< drawable pixels

    rb_contact *contacts;
    int contact_capacity, contact_count;
    line_vertex *lines, *points;
    int line_capacity, point_capacity;
    joint_draw joints;      ///< this frame's joint lines and points, when shown

    char message[512];
    double message_until;
    double frame_seconds;   ///< wall time of a frame, smoothed (the heads-up line shows its inverse)
    double last_frame;
} app;

/// Loads the scene, opens the window, sets up drawing. On failure prints one line
/// ("rubble-view: ...") and returns the exit status (VIEW_EXIT_FAIL); VIEW_EXIT_OK on success.
int app_start(app *a, const viewer_options *o);
/// Interactive: runs until the window is closed. Returns the exit status.
int app_run_interactive(app *a);
/// Headless: renders options->frames frames, writes the screenshot if asked, prints a summary line.
int app_run_headless(app *a);
void app_stop(app *a);

#endif
