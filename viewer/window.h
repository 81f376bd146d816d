// The SDL2 window and its OpenGL 3.3 core context. Failing to get either (no display, no GL 3.3) is
// reported as one line naming what failed and SDL's reason.
#ifndef RUBBLE_VIEW_WINDOW_H
#define RUBBLE_VIEW_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

#include <SDL.h>

typedef struct gl_window {
    SDL_Window *window;
    SDL_GLContext context;
    bool sdl_started;
    int drawable_w, drawable_h; ///< framebuffer pixels (may differ from window units on HiDPI)
    int window_w, window_h;
    char gl_description[256];   ///< "OpenGL 4.5 (Core Profile) Mesa ..., llvmpipe ..."
} gl_window;

/// Opens a window of `width` x `height` with a 3.3 core context. `hidden` keeps it off screen
/// (headless rendering still works: the viewer draws into its own framebuffer). Returns false with
/// the sentence in `err`.
bool window_open(gl_window *w, const char *title, int width, int height, bool hidden, bool vsync, char *err,
                 size_t err_size);
void window_close(gl_window *w);
/// Re-reads the window and drawable sizes (after a resize event).
void window_update_size(gl_window *w);

#endif
