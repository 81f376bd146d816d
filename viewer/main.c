// rubble-view: an SDL2 window onto any scene on any backend. See docs/viewer.md.
#include "app.h"

int main(int argc, char **argv)
{
    viewer_options options;
    int status = viewer_parse_options(argc, argv, &options);
    if (status >= 0)
        return status;
    // an output that cannot be written fails before the scene, the window and the frames
    if (options.screenshot && !cli_check_output("rubble-view", "--screenshot", options.screenshot))
        return VIEW_EXIT_FAIL;
    app a;
    status = app_start(&a, &options);
    if (status != VIEW_EXIT_OK)
        return status;
    status = options.frames > 0 ? app_run_headless(&a) : app_run_interactive(&a);
    app_stop(&a);
    return status;
}
