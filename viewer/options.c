// rubble-view's command line (see options.h and docs/viewer.md).
#include "options.h"

#include <stdio.h>
#include <string.h>

static const char k_who[] = "rubble-view";

enum { VIEW_OPTIONS = CLI_OPT_BACKEND | CLI_OPT_SOLVER | CLI_OPT_THREADS | CLI_OPT_SEED | CLI_OPT_NO_SLEEP };
enum { HELP_WIDTH = CLI_HELP_WIDTH };

void viewer_usage(FILE *f)
{
    fputs("usage: rubble-view SCENE [options]\n"
          "\n"
          "Show a scene running on any backend in an SDL2 window (OpenGL 3.3). SCENE is a scene file\n"
          "(docs/scene-format.md) or a built-in scene,\n"
          "one of " CLI_BUILTIN_SCENES ".\n"
          "An existing file wins over a built-in name.\n"
          "\n"
          "options (as in 'rubble run'):\n",
          f);
    cli_common d = cli_default_common(VIEW_OPTIONS);
    cli_print_common_help(f, &d, HELP_WIDTH);
    fputs("\nwindow:\n", f);
    cli_print_option(f, HELP_WIDTH, "--width W", "window width in pixels, 64..16384 (default 1280)");
    cli_print_option(f, HELP_WIDTH, "--height H", "window height in pixels, 64..16384 (default 720)");
    cli_print_option(f, HELP_WIDTH, "--paused", "start paused");
    cli_print_option(f, HELP_WIDTH, "--contacts", "start with contacts shown");
    cli_print_option(f, HELP_WIDTH, "--no-joints", "start with joints hidden (j toggles them)");
    cli_print_option(f, HELP_WIDTH, "--no-hud", "hide the heads-up text");
    cli_print_option(f, HELP_WIDTH, "--panel", "start with the side panel open (F1 or Tab toggles it)");
    cli_print_option(f, HELP_WIDTH, "--msaa N", "multisample anti-aliasing: 0, 2, 4 or 8 samples (default 4)");
    cli_print_option(f, HELP_WIDTH, "--no-vsync", "do not wait for the display's refresh");
    fputs("\nheadless (documentation, tests):\n", f);
    cli_print_option(f, HELP_WIDTH, "--frames N", "render N frames without user input, then exit");
    cli_print_option(f, HELP_WIDTH, "--screenshot FILE",
                     "write the last frame as PNG (implies --frames 1 if --frames is not given); FILE is "
                     "checked before the scene is loaded");
    cli_print_option(f, HELP_WIDTH, "--steps-per-frame N", "steps per frame with --frames (default 1; 0 = render only)");
    cli_print_option(f, HELP_WIDTH, "--panel-scene NAME",
                     "pick scene NAME in the panel's list at start, as a click on it does");
    fputc('\n', f);
    cli_print_option(f, HELP_WIDTH, "-h, --help", "show this help");
    cli_print_option(f, HELP_WIDTH, "--version", "print the version");
    fputs("\n"
          "keys: mouse drag orbit (on a body: pull it), right/middle drag or shift+drag pan, wheel zoom,\n"
          "space pause, n step, r reset, +/- time scale, c contacts, j joints, s screenshot, h help, F1/Tab panel,\n"
          "f frame, esc quit\n"
          "\n"
          "exit status: 0 success; 1 the scene, the library, the display or the screenshot failed; 2 bad\n"
          "command line (docs/cli.md).\n",
          f);
}

int viewer_parse_options(int argc, char **argv, viewer_options *o)
{
    *o = (viewer_options){.frames = -1, .steps_per_frame = 1, .width = 1280, .height = 720, .hud = true, .joints = true,
                          .msaa = 4, .vsync = true};
    cli_common c = cli_default_common(VIEW_OPTIONS);
    cli_args a;
    cli_args_init(&a, k_who, argc, argv, 1);
    while (cli_args_next(&a)) {
        int common = cli_take_common(&a, &c);
        if (common < 0)
            return VIEW_EXIT_USAGE;
        if (common > 0)
            continue;
        const char *v;
        long n;
        if (cli_args_is(&a, "-h") || cli_args_is(&a, "--help")) {
            viewer_usage(stdout);
            return VIEW_EXIT_OK;
        } else if (cli_args_is(&a, "--version")) {
            printf("rubble-view %s\n", rb_version_string());
            return VIEW_EXIT_OK;
        } else if (cli_args_is(&a, "--width") || cli_args_is(&a, "--height")) {
            if (!(v = cli_args_value(&a)) || !cli_parse_int(k_who, a.name, v, 64, 16384, &n))
                return VIEW_EXIT_USAGE;
            *(cli_args_is(&a, "--width") ? &o->width : &o->height) = (int)n;
        } else if (cli_args_is(&a, "--frames")) {
            if (!(v = cli_args_value(&a)) || !cli_parse_int(k_who, "--frames", v, 1, 100000000, &n))
                return VIEW_EXIT_USAGE;
            o->frames = (int)n;
        } else if (cli_args_is(&a, "--screenshot")) {
            if (!(v = cli_args_value(&a)))
                return VIEW_EXIT_USAGE;
            if (!*v)
                return cli_usage_error(k_who, "--screenshot: expected a file name, got ''");
            o->screenshot = v;
        } else if (cli_args_is(&a, "--steps-per-frame")) {
            if (!(v = cli_args_value(&a)) || !cli_parse_int(k_who, "--steps-per-frame", v, 0, 10000, &n))
                return VIEW_EXIT_USAGE;
            o->steps_per_frame = (int)n;
        } else if (cli_args_is(&a, "--msaa")) {
            if (!(v = cli_args_value(&a)) || !cli_parse_int(k_who, "--msaa", v, 0, 8, &n))
                return VIEW_EXIT_USAGE;
            if (n != 0 && n != 2 && n != 4 && n != 8)
                return cli_usage_error(k_who, "--msaa: expected 0, 2, 4 or 8, got '%s'", v);
            o->msaa = (int)n;
        } else if (cli_args_is(&a, "--panel-scene")) {
            if (!(v = cli_args_value(&a)))
                return VIEW_EXIT_USAGE;
            if (!*v)
                return cli_usage_error(k_who, "--panel-scene: expected a scene's name, got ''");
            o->panel_scene = v;
        } else if (cli_args_is(&a, "--panel")) {
            if (!cli_args_no_value(&a))
                return VIEW_EXIT_USAGE;
            o->panel = true;
        } else if (cli_args_is(&a, "--paused") || cli_args_is(&a, "--contacts") || cli_args_is(&a, "--no-hud") ||
                   cli_args_is(&a, "--no-joints") || cli_args_is(&a, "--no-vsync")) {
            if (!cli_args_no_value(&a))
                return VIEW_EXIT_USAGE;
            if (cli_args_is(&a, "--paused"))
                o->paused = true;
            else if (cli_args_is(&a, "--contacts"))
                o->contacts = true;
            else if (cli_args_is(&a, "--no-hud"))
                o->hud = false;
            else if (cli_args_is(&a, "--no-joints"))
                o->joints = false;
            else
                o->vsync = false;
        } else if (cli_args_is_option(&a)) {
            return cli_usage_error(k_who, "unknown option '%s'", a.name);
        } else if (o->scene) {
            return cli_usage_error(k_who, "one scene expected, got '%s' and '%s'", o->scene, a.name);
        } else {
            o->scene = a.name;
        }
    }
    if (!o->scene)
        return cli_usage_error(k_who, "missing SCENE (a scene file or " CLI_BUILTIN_SCENES ")");
    o->backend = c.backend;
    o->solver = c.solver;
    o->threads = c.threads;
    o->seed = c.seed;
    o->no_sleep = c.no_sleep;
    if (o->frames < 0)
        o->frames = o->screenshot ? 1 : 0;
    return -1;
}
