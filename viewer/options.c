// rubble-view's command line (see options.h and docs/viewer.md).
#include "options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char viewer_usage[] =
    "usage: rubble-view SCENE [options]\n"
    "\n"
    "Show a scene running on any backend in an SDL2 window (OpenGL 3.3). SCENE is a scene file\n"
    "(docs/scene-format.md) or a built-in scene: pyramid, stack, pile, pile:S, boxes. An existing\n"
    "file wins over a built-in name.\n"
    "\n"
    "options:\n"
    "  --backend B          cpu, opencl, cuda or auto (default auto: RUBBLE_BACKEND if set, else a\n"
    "                       CUDA GPU, else an OpenCL GPU, else cpu)\n"
    "  --solver S           contact solver: batched, or default (the backend's choice; default)\n"
    "  --threads N          CPU threads, 1..1024; 0 (default) = RUBBLE_THREADS, OMP_NUM_THREADS, all cores\n"
    "  --seed S             seed of a built-in scene's jitter and rotations (default 1)\n"
    "  --no-sleep           keep bodies awake\n"
    "  --width W            window width in pixels (default 1280)\n"
    "  --height H           window height in pixels (default 720)\n"
    "  --paused             start paused\n"
    "  --contacts           start with contacts shown\n"
    "  --no-hud             hide the heads-up text\n"
    "  --msaa N             multisample anti-aliasing: 0, 2, 4 or 8 samples (default 4)\n"
    "  --no-vsync           do not wait for the display's refresh\n"
    "\n"
    "headless (documentation, tests):\n"
    "  --frames N           render N frames without user input, then exit\n"
    "  --screenshot FILE    write the last frame as PNG (implies --frames 1 if --frames is not given)\n"
    "  --steps-per-frame N  steps per frame with --frames (default 1; 0 = render only)\n"
    "\n"
    "  -h, --help           show this help\n"
    "  --version            print the version\n"
    "\n"
    "keys: mouse drag orbit (on a body: pull it), right/middle drag or shift+drag pan, wheel zoom,\n"
    "space pause, n step, r reset, +/- time scale, c contacts, s screenshot, h help, f frame, esc quit\n";

static int usage_error(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "rubble-view: %s (see 'rubble-view --help')\n", msg);
    return VIEW_EXIT_USAGE;
}

static bool parse_long(const char *option, const char *text, long min, long max, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno == ERANGE || end == text || *end != '\0' || v < min || v > max) {
        usage_error("%s: expected a whole number in [%ld, %ld], got '%s'", option, min, max, text);
        return false;
    }
    *out = v;
    return true;
}

static bool parse_u64(const char *option, const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    unsigned long long v = strtoull(text, &end, hex ? 16 : 10);
    if (errno == ERANGE || end == text || *end != '\0' || text[0] == '-' || text[0] == '+') {
        usage_error("%s: expected an unsigned 64-bit whole number (decimal or 0x hex), got '%s'", option, text);
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

int viewer_parse_options(int argc, char **argv, viewer_options *o)
{
    *o = (viewer_options){.backend = RB_BACKEND_AUTO,
                          .solver = RB_SOLVER_DEFAULT,
                          .seed = 1,
                          .width = 1280,
                          .height = 720,
                          .frames = -1,
                          .steps_per_frame = 1,
                          .hud = true,
                          .msaa = 4,
                          .vsync = true};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        // --name=value or --name value
        char name[64];
        const char *value = NULL;
        const char *eq = strchr(arg, '=');
        if (arg[0] == '-' && arg[1] == '-' && eq && (size_t)(eq - arg) < sizeof name) {
            memcpy(name, arg, (size_t)(eq - arg));
            name[eq - arg] = '\0';
            value = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg);
        }
#define IS(opt) (strcmp(name, opt) == 0)
#define VALUE()                                                                                                       \
    do {                                                                                                              \
        if (!value) {                                                                                                 \
            if (i + 1 >= argc)                                                                                        \
                return usage_error("option %s needs a value", name);                                                  \
            value = argv[++i];                                                                                        \
        }                                                                                                             \
    } while (0)
#define FLAG()                                                                                                        \
    do {                                                                                                              \
        if (value)                                                                                                    \
            return usage_error("option %s takes no value, got '%s'", name, value);                                   \
    } while (0)
        long n;
        if (IS("-h") || IS("--help")) {
            fputs(viewer_usage, stdout);
            return VIEW_EXIT_OK;
        } else if (IS("--version")) {
            printf("rubble-view %s\n", rb_version_string());
            return VIEW_EXIT_OK;
        } else if (IS("--backend")) {
            VALUE();
            if (rb_backend_from_name(value, &o->backend) != RB_OK)
                return usage_error("--backend: unknown backend '%s': expected cpu, opencl, cuda or auto", value);
        } else if (IS("--solver")) {
            VALUE();
            if (rb_solver_from_name(value, &o->solver) != RB_OK)
                return usage_error("--solver: %s", rb_last_error(rb_null_world_id));
        } else if (IS("--threads")) {
            VALUE();
            if (!parse_long("--threads", value, 0, 1024, &n))
                return VIEW_EXIT_USAGE;
            o->threads = (int)n;
        } else if (IS("--seed")) {
            VALUE();
            if (!parse_u64("--seed", value, &o->seed))
                return VIEW_EXIT_USAGE;
        } else if (IS("--no-sleep")) {
            FLAG();
            o->no_sleep = true;
        } else if (IS("--width") || IS("--height")) {
            VALUE();
            if (!parse_long(name, value, 64, 16384, &n))
                return VIEW_EXIT_USAGE;
            *(IS("--width") ? &o->width : &o->height) = (int)n;
        } else if (IS("--frames")) {
            VALUE();
            if (!parse_long("--frames", value, 1, 100000000, &n))
                return VIEW_EXIT_USAGE;
            o->frames = (int)n;
        } else if (IS("--screenshot")) {
            VALUE();
            if (!*value)
                return usage_error("--screenshot: expected a file name, got ''");
            o->screenshot = value;
        } else if (IS("--steps-per-frame")) {
            VALUE();
            if (!parse_long("--steps-per-frame", value, 0, 10000, &n))
                return VIEW_EXIT_USAGE;
            o->steps_per_frame = (int)n;
        } else if (IS("--paused")) {
            FLAG();
            o->paused = true;
        } else if (IS("--contacts")) {
            FLAG();
            o->contacts = true;
        } else if (IS("--no-hud")) {
            FLAG();
            o->hud = false;
        } else if (IS("--no-vsync")) {
            FLAG();
            o->vsync = false;
        } else if (IS("--msaa")) {
            VALUE();
            if (!parse_long("--msaa", value, 0, 8, &n))
                return VIEW_EXIT_USAGE;
            if (n != 0 && n != 2 && n != 4 && n != 8)
                return usage_error("--msaa: expected 0, 2, 4 or 8, got '%s'", value);
            o->msaa = (int)n;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usage_error("unknown option '%s'", name);
        } else if (o->scene) {
            return usage_error("one scene expected, got '%s' and '%s'", o->scene, arg);
        } else {
            o->scene = arg;
        }
#undef IS
#undef VALUE
#undef FLAG
    }
    if (!o->scene)
        return usage_error("missing SCENE (a scene file or pyramid, stack, pile, pile:S, boxes)");
    if (o->frames < 0)
        o->frames = o->screenshot ? 1 : 0;
    return -1;
}
