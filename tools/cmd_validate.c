// `rubble validate SCENE`: load a scene into a world without stepping it, and say what it holds or
// why it cannot be loaded.
#include <stdio.h>

#include "body_state.h"
#include "commands.h"

enum { VALIDATE_OPTIONS = CLI_OPT_BACKEND | CLI_OPT_SOLVER | CLI_OPT_THREADS | CLI_OPT_SEED };

void cmd_validate_usage(FILE *f)
{
    fputs("usage: rubble validate SCENE [options]\n"
          "\n"
          "Load a scene file (docs/scene-format.md) or build a built-in scene into a world, without\n"
          "stepping it, and print its bodies, shapes, joints, hulls and world settings followed by 'OK'. A\n"
          "scene that cannot be loaded prints the loader's message (file:line:column and what was\n"
          "expected) and exits 1.\n"
          "\n"
          "options:\n",
          f);
    cli_common d = cli_default_common(VALIDATE_OPTIONS);
    cli_print_common_help(f, &d, CMD_HELP_WIDTH);
    cli_print_option(f, CMD_HELP_WIDTH, "-h, --help", "show this help");
    fputs("\n"
          "example:\n"
          "  rubble validate data/scenes/demo.yaml\n",
          f);
}

int cmd_validate(int argc, char **argv)
{
    const char *who = "rubble validate";
    cli_common c = cli_default_common(VALIDATE_OPTIONS);
    const char *scene = NULL;
    cli_args a;
    cli_args_init(&a, who, argc, argv, 1);
    while (cli_args_next(&a)) {
        int common = cli_take_common(&a, &c);
        if (common < 0)
            return CLI_EXIT_USAGE;
        if (common > 0)
            continue;
        if (cli_args_is(&a, "-h") || cli_args_is(&a, "--help")) {
            cmd_validate_usage(stdout);
            return CLI_EXIT_OK;
        } else if (cli_args_is_option(&a)) {
            return cli_usage_error(who, "unknown option '%s'", a.name);
        } else if (scene) {
            return cli_usage_error(who, "one scene expected, got '%s' and '%s'", scene, a.name);
        } else {
            scene = a.name;
        }
    }
    if (!scene)
        return cli_usage_error(who, "missing SCENE (a scene file or " CLI_BUILTIN_SCENES ")");

    rb_world_id w;
    int status = cli_create_world(who, &c, &w);
    if (status != CLI_EXIT_OK)
        return status;
    body_state s = {0};
    if ((status = cli_load_scene(who, w, scene, c.seed)) != CLI_EXIT_OK)
        goto done;
    rb_counters counters = {0};
    rb_world_def def = rb_default_world_def();
    float dt = 0.0f;
    int substeps = 0, joints = 0, hulls = 0, convex = 0;
    rb_status st = body_state_read(w, &s);
    if (st == RB_OK)
        st = rb_world_get_counters(w, &counters);
    if (st == RB_OK)
        st = rb_world_get_joint_count(w, &joints);
    if (st == RB_OK)
        st = body_state_count_hulls(w, &s, &hulls, &convex);
    if (st == RB_OK)
        st = rb_world_get_def(w, &def);
    if (st == RB_OK)
        st = rb_world_get_time_step(w, &dt, &substeps);
    if (st != RB_OK) {
        status = cli_library_error(who, "cannot read the loaded world", w);
        goto done;
    }
    printf("scene      %s (%s)\n", scene, cli_scene_is_file(scene) ? "file" : "built-in");
    printf("bodies     %d: %d dynamic, %d kinematic, %d static\n", s.count, body_state_count_type(&s, RB_BODY_DYNAMIC),
           body_state_count_type(&s, RB_BODY_KINEMATIC), body_state_count_type(&s, RB_BODY_STATIC));
    printf("shapes     %d\n", counters.shapes);
    printf("joints     %d\n", joints);
    if (convex > 0)
        printf("hulls      %d, for %d convex shape%s\n", hulls, convex, convex == 1 ? "" : "s");
    else
        printf("hulls      0\n");
    printf("world      time step %.6g ms, %d substep%s, gravity (%g, %g, %g) m/s², sleep %s\n", dt * 1000.0, substeps,
           substeps == 1 ? "" : "s", def.gravity.x, def.gravity.y, def.gravity.z, def.enable_sleep ? "on" : "off");
    printf("OK\n");
done:
    body_state_free(&s);
    rb_destroy_world(w);
    return status;
}
