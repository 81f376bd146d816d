// SDL2 window and OpenGL context (see window.h).
#define _GNU_SOURCE // dl_iterate_phdr, RTLD_NODELETE
#include "window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <epoxy/gl.h>

#if defined(__SANITIZE_ADDRESS__)
#define RB_VIEW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RB_VIEW_ASAN 1
#endif
#endif

#ifdef RB_VIEW_ASAN
#include <dlfcn.h>
#include <link.h>

// Under AddressSanitizer only: keep every library loaded so far (the GL driver among them) until the
// process exits. glvnd unloads the vendor library, and with it Mesa's driver, when the display
// closes; the heap blocks that their static data pointed to would then look leaked to LeakSanitizer,
// which could not even name the library. rubble-view's own allocations stay checked.
static int pin_library(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name && info->dlpi_name[0])
        dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}
#endif

bool window_open(gl_window *w, const char *title, int width, int height, bool hidden, bool vsync, char *err,
                 size_t err_size)
{
    memset(w, 0, sizeof *w);
    const char *display = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY"), *driver = getenv("SDL_VIDEODRIVER");
    bool has_display = (display && *display) || (wayland && *wayland);
    if (!(driver && *driver)) {
        // Without a display SDL would fall back to its 'offscreen' driver, a window nobody sees; say
        // so instead. SDL_VIDEODRIVER set by the user (offscreen for headless EGL rendering, kmsdrm on
        // a console) is theirs to choose.
        if (!has_display) {
            snprintf(err, err_size,
                     "cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are not set); run under xvfb-run, "
                     "or set SDL_VIDEODRIVER (e.g. offscreen with --frames)");
            return false;
        }
        // talk only to the display that is there (probing the other one prints noise on stderr)
        if (!(wayland && *wayland))
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
        else if (!(display && *display))
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "wayland");
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(err, err_size,
                 "cannot open a window: SDL_Init(SDL_INIT_VIDEO) failed: %s (DISPLAY=%s, WAYLAND_DISPLAY=%s, "
                 "SDL_VIDEODRIVER=%s; without a display, run under xvfb-run)",
                 SDL_GetError(), display ? display : "(not set)", wayland ? wayland : "(not set)",
                 driver ? driver : "(not set)");
        return false;
    }
    w->sdl_started = true;
    const char *chosen = SDL_GetCurrentVideoDriver();
    if (!hidden && chosen && (strcmp(chosen, "offscreen") == 0 || strcmp(chosen, "dummy") == 0)) {
        snprintf(err, err_size,
                 "cannot open a window: SDL's '%s' video driver shows nothing on screen; use it with --frames N "
                 "(headless), or run on a display",
                 chosen);
        window_close(w);
        return false;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    // the scene is drawn into the viewer's own framebuffer: the window needs colour only
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    flags |= hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN;
    w->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
    if (!w->window) {
        snprintf(err, err_size, "cannot create an OpenGL window (video driver '%s'): SDL_CreateWindow failed: %s",
                 SDL_GetCurrentVideoDriver() ? SDL_GetCurrentVideoDriver() : "none", SDL_GetError());
        window_close(w);
        return false;
    }
    w->context = SDL_GL_CreateContext(w->window);
    if (!w->context) {
        snprintf(err, err_size,
                 "cannot create an OpenGL 3.3 core profile context: SDL_GL_CreateContext failed: %s (the driver may "
                 "offer only an older OpenGL; Mesa's llvmpipe software renderer provides 3.3)",
                 SDL_GetError());
        window_close(w);
        return false;
    }
    int version = epoxy_gl_version();
    if (version < 33 || epoxy_is_desktop_gl() == 0) {
        snprintf(err, err_size, "the OpenGL context is version %d.%d%s; rubble-view needs desktop OpenGL 3.3 core",
                 version / 10, version % 10, epoxy_is_desktop_gl() ? "" : " (OpenGL ES)");
        window_close(w);
        return false;
    }
    snprintf(w->gl_description, sizeof w->gl_description, "OpenGL %s, %s", (const char *)glGetString(GL_VERSION),
             (const char *)glGetString(GL_RENDERER));
#ifdef RB_VIEW_ASAN
    dl_iterate_phdr(pin_library, NULL);
#endif
    // vsync is a wish: some drivers refuse it, which is fine
    SDL_GL_SetSwapInterval(vsync ? 1 : 0);
    window_update_size(w);
    return true;
}

void window_update_size(gl_window *w)
{
    SDL_GetWindowSize(w->window, &w->window_w, &w->window_h);
    SDL_GL_GetDrawableSize(w->window, &w->drawable_w, &w->drawable_h);
    if (w->drawable_w <= 0 || w->drawable_h <= 0) {
        w->drawable_w = w->window_w > 0 ? w->window_w : 1;
        w->drawable_h = w->window_h > 0 ? w->window_h : 1;
    }
}

void window_close(gl_window *w)
{
    if (w->context)
        SDL_GL_DeleteContext(w->context);
    if (w->window)
        SDL_DestroyWindow(w->window);
    if (w->sdl_started)
        SDL_Quit();
    memset(w, 0, sizeof *w);
}
