// rubble-view's command line. The options it shares with `rubble` (--backend, --solver, --threads,
// --seed, --no-sleep) are parsed and described by tools/cli_common.c, the same code as `rubble run`'s;
// the window's options are here. Exit statuses are those of `rubble` (docs/cli.md).
#ifndef RUBBLE_VIEW_OPTIONS_H
#define RUBBLE_VIEW_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_common.h"
#include "rubble.h"

enum {
    VIEW_EXIT_OK = CLI_EXIT_OK,
    VIEW_EXIT_FAIL = CLI_EXIT_FAIL,   ///< no display or GL context, a scene or library error, a screenshot that
                                      ///< cannot be written
    VIEW_EXIT_USAGE = CLI_EXIT_USAGE, ///< bad command line
};

typedef struct viewer_options {
    const char *scene;      ///< scene file or built-in name
    rb_backend backend;     ///< --backend (default auto: RUBBLE_BACKEND, else the best available)
    rb_solver solver;       ///< --solver
    int threads;            ///< --threads, 0 = the library's default
    uint64_t seed;          ///< --seed of a built-in scene (default 1)
    bool no_sleep;          ///< --no-sleep
    int width, height;      ///< --width, --height: window size (default 1280 x 720)
    int frames;             ///< --frames N: render N frames and exit (0 = interactive)
    const char *screenshot; ///< --screenshot FILE: PNG of the last frame (headless)
    int steps_per_frame;    ///< --steps-per-frame (headless; default 1, 0 = render only)
    bool paused;            ///< --paused
    bool contacts;          ///< --contacts: start with contacts shown
    bool hud;               ///< false with --no-hud
    bool joints;            ///< false with --no-joints: start with joints hidden
    int msaa;               ///< --msaa samples: 0, 2, 4, 8 (default 4)
    bool vsync;             ///< false with --no-vsync (interactive; headless never waits)
    bool panel;             ///< --panel: start with the side panel open
    const char *panel_scene; ///< --panel-scene NAME: picked in the panel at start, or NULL
} viewer_options;

/// Returns -1 to go on, else the exit status (help or version printed, or a bad argument reported).
int viewer_parse_options(int argc, char **argv, viewer_options *o);

/// --help: the usage, the shared options (cli_common.h) and the viewer's own.
void viewer_usage(FILE *f);

#endif
