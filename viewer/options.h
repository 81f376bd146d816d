// rubble-view's command line. Bad arguments print one line naming the argument and give exit
// status 2, as the `rubble` command line does (docs/cli.md).
#ifndef RUBBLE_VIEW_OPTIONS_H
#define RUBBLE_VIEW_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rubble.h"

enum {
    VIEW_EXIT_OK = 0,
    VIEW_EXIT_FAIL = 1,  ///< no display or GL context, a library error, a screenshot that cannot be written
    VIEW_EXIT_USAGE = 2, ///< bad command line
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
    int msaa;               ///< --msaa samples: 0, 2, 4, 8 (default 4)
    bool vsync;             ///< false with --no-vsync (interactive; headless never waits)
} viewer_options;

/// Returns -1 to go on, else the exit status (help or version printed, or a bad argument reported).
int viewer_parse_options(int argc, char **argv, viewer_options *o);

extern const char viewer_usage[];

#endif
