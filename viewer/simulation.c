// The simulated world and its clock (see simulation.h).
#include "simulation.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_STEPS_PER_FRAME 8
#define MAX_STEP_SECONDS_PER_FRAME 0.040

double simulation_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bool looks_like_a_path(const char *scene)
{
    return strchr(scene, '/') != NULL || strchr(scene, '.') != NULL;
}

static bool library_failure(simulation *s, const char *what, rb_world_id world)
{
    const char *msg = rb_last_error(world);
    snprintf(s->error, sizeof s->error, "%s: %s", what, msg && *msg ? msg : "(no message from the library)");
    return false;
}

// Creates the world and loads `scene` into it; see simulation_start.
static bool load(simulation *s, const viewer_options *o, const char *scene)
{
    float time_scale = s->time_scale > 0.0f ? s->time_scale : 1.0f;
    bool paused = s->options ? s->paused : o->paused;
    char name[sizeof s->scene];
    snprintf(name, sizeof name, "%s", scene);
    memset(s, 0, sizeof *s);
    s->options = o;
    memcpy(s->scene, name, sizeof name);
    scene = s->scene;
    s->time_scale = time_scale;
    s->paused = paused;

    rb_world_def def = rb_default_world_def();
    def.backend = o->backend;
    def.solver = o->solver;
    def.threads = o->threads;
    if (rb_create_world(&def, &s->world) != RB_OK)
        return library_failure(s, "cannot create the world", rb_null_world_id);
    // an existing file wins over a built-in name, as in `rubble run`
    if (access(scene, F_OK) == 0) {
        if (rb_load_scene(s->world, scene) != RB_OK)
            goto fail_loading;
    } else if (looks_like_a_path(scene)) {
        // no built-in scene has a '/' or a '.' in its name: say what is wrong with the file
        snprintf(s->error, sizeof s->error, "cannot open the scene file '%s': %s", scene, strerror(errno));
        rb_destroy_world(s->world);
        s->world = rb_null_world_id;
        return false;
    } else if (rb_build_standard_scene(s->world, scene, o->seed) != RB_OK) {
        goto fail_loading;
    }
    if (o->no_sleep && rb_world_enable_sleep(s->world, false) != RB_OK)
        goto fail_loading;
    int substeps;
    if (rb_world_get_time_step(s->world, &s->dt, &substeps) != RB_OK || rb_world_get_info(s->world, &s->info) != RB_OK)
        goto fail_loading;
    return true;

fail_loading:
    library_failure(s, access(scene, F_OK) == 0 ? "cannot load the scene" : "cannot build the scene", s->world);
    rb_destroy_world(s->world);
    s->world = rb_null_world_id;
    return false;
}

void simulation_stop(simulation *s)
{
    if (rb_world_is_valid(s->world))
        rb_destroy_world(s->world);
    s->world = rb_null_world_id;
}

bool simulation_start(simulation *s, const viewer_options *o)
{
    return load(s, o, o->scene);
}

bool simulation_reset(simulation *s)
{
    char scene[sizeof s->scene];
    memcpy(scene, s->scene, sizeof scene);
    simulation_stop(s);
    return load(s, s->options, scene);
}

bool simulation_switch_scene(simulation *s, const char *scene)
{
    simulation_stop(s);
    return load(s, s->options, scene);
}

static void smooth(float *avg, float value, bool first)
{
    *avg = first ? value : 0.9f * *avg + 0.1f * value;
}

static bool step_once(simulation *s, simulation_hook hook, void *context)
{
    if (hook)
        hook(context, s->dt);
    double t0 = simulation_now();
    rb_status st = rb_world_step(s->world);
    double ms = 1e3 * (simulation_now() - t0);
    if (st == RB_ERR_NUMERIC) {
        // the library froze the body and finished the step: say so once and go on
        if (!s->warned_numeric)
            fprintf(stderr, "rubble-view: warning: %s\n", rb_last_error(s->world));
        s->warned_numeric = true;
    } else if (st != RB_OK) {
        return library_failure(s, "step failed", s->world);
    }
    bool first = s->steps == 0;
    s->step_ms = first ? ms : 0.9 * s->step_ms + 0.1 * ms;
    rb_profile p;
    if (rb_world_get_profile(s->world, &p) == RB_OK) {
        s->history[s->history_next] = p;
        s->history_next = (s->history_next + 1) % SIMULATION_HISTORY;
        if (s->history_count < SIMULATION_HISTORY)
            s->history_count++;
        smooth(&s->phases.step, p.step, first);
        smooth(&s->phases.integrate, p.integrate, first);
        smooth(&s->phases.bounds, p.bounds, first);
        smooth(&s->phases.broad, p.broad, first);
        smooth(&s->phases.narrow, p.narrow, first);
        smooth(&s->phases.batches, p.batches, first);
        smooth(&s->phases.correct, p.correct, first);
        smooth(&s->phases.solve, p.solve, first);
        smooth(&s->phases.sleep, p.sleep, first);
        smooth(&s->phases.transfer, p.transfer, first);
    }
    s->steps++;
    return true;
}

int simulation_step(simulation *s, int n, simulation_hook hook, void *context)
{
    for (int i = 0; i < n; ++i)
        if (!step_once(s, hook, context))
            return -1;
    return n;
}

int simulation_advance(simulation *s, double real_seconds, simulation_hook hook, void *context)
{
    if (s->paused) {
        s->accumulator = 0.0;
        int n = s->pending_steps;
        s->pending_steps = 0;
        return simulation_step(s, n, hook, context);
    }
    // a long stall (window dragged, debugger) is not made up for
    if (real_seconds > 0.25)
        real_seconds = 0.25;
    s->accumulator += real_seconds * s->time_scale;
    int taken = 0;
    double start = simulation_now();
    while (s->accumulator >= s->dt) {
        if (taken == MAX_STEPS_PER_FRAME || (taken > 0 && simulation_now() - start > MAX_STEP_SECONDS_PER_FRAME)) {
            s->accumulator = 0.0; // behind real time: run slower rather than fall further behind
            break;
        }
        if (!step_once(s, hook, context))
            return -1;
        s->accumulator -= s->dt;
        ++taken;
    }
    return taken;
}
