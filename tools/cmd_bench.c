// `rubble bench --scene NAME`: build a standard scene (docs/bench-scenes.md) in code, time each step,
// and print one JSON line with the timings and the scene's quality metrics.
#include <inttypes.h>
#include <stdio.h>

#include "body_state.h"
#include "commands.h"
#include "json_out.h"
#include "scene_quality.h"
#include "step_timing.h"

enum { WARMUP_STEPS = 10 };

enum { BENCH_OPTIONS = CLI_OPT_BACKEND | CLI_OPT_SOLVER | CLI_OPT_THREADS | CLI_OPT_STEPS | CLI_OPT_SUBSTEPS |
                       CLI_OPT_SEED };

typedef struct bench_options {
    cli_common common;
    const char *scene;
    bool sleep;
} bench_options;

void cmd_bench_usage(FILE *f)
{
    fputs("usage: rubble bench --scene NAME [options]\n"
          "\n"
          "Benchmark a standard scene (docs/bench-scenes.md, built in code) and print one JSON line:\n"
          "timings (ms per step, median and mean without the first 10 steps), per-phase means, and the\n"
          "scene's quality metrics measured after the timed steps. See docs/cli.md for every field.\n"
          "\n"
          "options:\n",
          f);
    cli_print_option(f, CMD_HELP_WIDTH, "--scene NAME",
                     CLI_BUILTIN_SCENES " (required; a lone NAME without --scene works too)");
    cli_common d = cli_default_common(BENCH_OPTIONS);
    cli_print_common_help(f, &d, CMD_HELP_WIDTH);
    cli_print_option(f, CMD_HELP_WIDTH, "--sleep", "let bodies sleep (default off, so sleeping cannot hide cost)");
    cli_print_option(f, CMD_HELP_WIDTH, "-h, --help", "show this help");
    fputs("\n"
          "examples:\n"
          "  rubble bench --scene pile --steps 600 --threads 2\n"
          "  rubble bench --scene pile:70 --backend cuda\n",
          f);
}

static int parse_bench_options(int argc, char **argv, bench_options *o)
{
    *o = (bench_options){.common = cli_default_common(BENCH_OPTIONS)};
    cli_args a;
    cli_args_init(&a, "rubble bench", argc, argv, 1);
    while (cli_args_next(&a)) {
        int common = cli_take_common(&a, &o->common);
        if (common < 0)
            return CLI_EXIT_USAGE;
        if (common > 0)
            continue;
        const char *v;
        if (cli_args_is(&a, "-h") || cli_args_is(&a, "--help")) {
            cmd_bench_usage(stdout);
            return CLI_EXIT_OK;
        } else if (cli_args_is(&a, "--scene")) {
            if (!(v = cli_args_value(&a)))
                return CLI_EXIT_USAGE;
            o->scene = v;
        } else if (cli_args_is(&a, "--sleep")) {
            if (!cli_args_no_value(&a))
                return CLI_EXIT_USAGE;
            o->sleep = true;
        } else if (cli_args_is_option(&a)) {
            return cli_usage_error("rubble bench", "unknown option '%s'", a.name);
        } else if (o->scene) {
            return cli_usage_error("rubble bench", "one scene expected, got '%s' and '%s'", o->scene, a.name);
        } else {
            o->scene = a.name;
        }
    }
    if (!o->scene)
        return cli_usage_error("rubble bench", "missing --scene NAME (" CLI_BUILTIN_SCENES ")");
    return -1;
}

// After each step, outside the timed span: with --sleep, the first step after which no body is awake
// (the counters walk the bodies); for the chain, the joint quality's maxima over the run.
typedef struct step_watch {
    bool sleep;
    int all_asleep_step; // 0: not yet
    joint_watch *joints; // NULL: nothing measured per step
} step_watch;

static int watch_step(void *context, rb_world_id world, int done)
{
    step_watch *sw = context;
    rb_counters c;
    if (sw->sleep && sw->all_asleep_step == 0 && rb_world_get_counters(world, &c) == RB_OK && c.awake_bodies == 0)
        sw->all_asleep_step = done;
    if (sw->joints && joint_watch_step(sw->joints, world) != RB_OK)
        return cli_library_error("rubble bench", "cannot read the bodies", world);
    return CLI_EXIT_OK;
}

static void emit_json_number(void *context, const char *key, double value)
{
    json_number(context, key, value);
}

static void print_json(rb_world_id w, const bench_options *o, int bodies, const timed_steps *t,
                       const scene_quality *q, const joint_watch *jw, const step_watch *sw)
{
    rb_world_info info = {0};
    rb_counters c = {0};
    float dt = 0.0f;
    int substeps = 0;
    rb_world_get_info(w, &info);
    rb_world_get_counters(w, &c);
    rb_world_get_time_step(w, &dt, &substeps);
    // the warm-up steps are left out when there are steps after them
    int skip = t->steps > WARMUP_STEPS ? WARMUP_STEPS : 0;
    rb_profile p = timed_steps_mean_profile(t);

    json_out j;
    json_init(&j, stdout);
    json_begin_object(&j, NULL);
    json_string(&j, "engine", "rubble");
    json_string(&j, "version", rb_version_string());
    json_string(&j, "backend", info.backend);
    json_string(&j, "device", info.device);
    json_string(&j, "solver", info.solver);
    json_int(&j, "threads", info.threads);
    json_string(&j, "scene", o->scene);
    json_int(&j, "bodies", bodies);
    if (q->has_joints) {
        int joints = 0;
        rb_world_get_joint_count(w, &joints);
        json_int(&j, "joints", joints);
    }
    json_int(&j, "steps", t->steps);
    json_int(&j, "substeps", substeps);
    json_bool(&j, "sleep", o->sleep);
    json_number(&j, "ms_per_step_median", timing_median(t->ms + skip, t->steps - skip));
    json_number(&j, "ms_per_step_mean", timing_mean(t->ms + skip, t->steps - skip));
    json_number(&j, "ms_total", t->total_ms);
    json_int(&j, "contacts_last", c.contacts);
    json_begin_object(&j, "phases_ms");
    json_number(&j, "integrate", p.integrate);
    json_number(&j, "bounds", p.bounds);
    json_number(&j, "broad", p.broad);
    json_number(&j, "narrow", p.narrow);
    json_number(&j, "batches", p.batches);
    json_number(&j, "correct", p.correct);
    json_number(&j, "solve", p.solve);
    json_number(&j, "sleep", p.sleep);
    json_number(&j, "transfer", p.transfer);
    json_end_object(&j);
    if (q->has_drift) {
        json_number(&j, "max_drift", q->max_drift);
        json_number(&j, "top_y", q->top_y);
    }
    if (q->has_penetration) {
        json_number(&j, "max_penetration", q->max_penetration);
        json_number(&j, "max_ground_penetration", q->max_ground_penetration);
    }
    if (q->has_escaped)
        json_int(&j, "escaped", q->escaped);
    if (q->has_min_y)
        json_number(&j, "min_y", q->min_y);
    if (q->has_hull_ground) {
        json_number(&j, "max_ground_penetration", q->max_ground_penetration);
        json_int(&j, "moving_final", q->moving_final);
    }
    if (q->has_joints)
        joint_watch_report(jw, q, emit_json_number, &j);
    json_number(&j, "max_speed_final", q->max_speed_final);
    if (o->sleep) {
        json_int(&j, "awake_final", c.awake_bodies);
        // seconds of simulated time until every body slept; -1: not within the run
        json_number(&j, "all_asleep_s", sw->all_asleep_step ? sw->all_asleep_step * (double)dt : -1.0);
    }
    json_end_object(&j);
    fputc('\n', stdout);
    fflush(stdout);
}

static int read_state(rb_world_id w, body_state *s)
{
    rb_status st = body_state_read(w, s);
    if (st == RB_OK)
        return CLI_EXIT_OK;
    if (st == RB_ERR_OUT_OF_MEMORY) {
        fprintf(stderr, "rubble bench: out of memory reading the bodies\n");
        return CLI_EXIT_FAIL;
    }
    return cli_library_error("rubble bench", "cannot read the bodies", w);
}

int cmd_bench(int argc, char **argv)
{
    bench_options o;
    int status = parse_bench_options(argc, argv, &o);
    if (status >= 0)
        return status;
    standard_scene scene;
    int kind = standard_scene_parse(o.scene, &scene);
    if (kind < 0)
        return cli_usage_error("rubble bench", "--scene '%s': S of pile:S must be a whole number >= 1", o.scene);
    if (kind == 0)
        return cli_usage_error("rubble bench", "--scene '%s' is not a standard scene (" CLI_BUILTIN_SCENES ")",
                               o.scene);

    rb_world_id w;
    if ((status = cli_create_world("rubble bench", &o.common, &w)) != CLI_EXIT_OK)
        return status;
    body_state start = {0}, end = {0};
    timed_steps t = {0};
    joint_watch jw = {0};
    // the substeps first: the ragdolls' damping rates are set for the world's substeps when it is built
    if (o.common.substeps > 0) {
        float dt;
        int substeps;
        if (rb_world_get_time_step(w, &dt, &substeps) != RB_OK || rb_world_set_time_step(w, dt, o.common.substeps) != RB_OK) {
            status = cli_library_error("rubble bench", "cannot set the substeps", w);
            goto done;
        }
    }
    if (rb_build_standard_scene(w, o.scene, o.common.seed) != RB_OK) {
        status = cli_library_error("rubble bench", "cannot build the scene", w);
        goto done;
    }
    if (rb_world_enable_sleep(w, o.sleep) != RB_OK) {
        status = cli_library_error("rubble bench", "cannot set sleeping", w);
        goto done;
    }
    bool jointed = scene.kind == SCENE_CHAIN || scene.kind == SCENE_RAGDOLLS;
    rb_status st = jointed ? joint_watch_init(&jw, w, &scene) : RB_OK;
    if (st != RB_OK) {
        fprintf(stderr, "rubble bench: cannot set up the joint quality metrics: %s\n", rb_status_string(st));
        status = CLI_EXIT_FAIL;
        goto done;
    }
    // only the drift metrics need the starting state
    bool needs_start = scene.kind == SCENE_PYRAMID || scene.kind == SCENE_STACK;
    if (needs_start && (status = read_state(w, &start)) != CLI_EXIT_OK)
        goto done;
    int skip = o.common.steps > WARMUP_STEPS ? WARMUP_STEPS : 0;
    // only the chain has quality fields over the run (max_joint_error_run, max_stretch_run)
    step_watch sw = {.sleep = o.sleep, .joints = scene.kind == SCENE_CHAIN ? &jw : NULL};
    bool watch = sw.sleep || sw.joints;
    if ((status = timed_steps_run(w, o.common.steps, skip, "rubble bench", watch ? watch_step : NULL, &sw, &t)) !=
        CLI_EXIT_OK)
        goto done;
    if ((status = read_state(w, &end)) != CLI_EXIT_OK)
        goto done;
    scene_quality q;
    st = scene_quality_measure(w, &scene, needs_start ? &start : NULL, &end, jointed ? &jw : NULL, &q);
    if (st != RB_OK) {
        fprintf(stderr, "rubble bench: measuring the quality metrics failed: %s\n", rb_status_string(st));
        status = CLI_EXIT_FAIL;
        goto done;
    }
    print_json(w, &o, body_state_count_type(&end, RB_BODY_DYNAMIC), &t, &q, &jw, &sw);
    cli_warn_imprecise("rubble bench", w);
done:
    joint_watch_free(&jw);
    body_state_free(&start);
    body_state_free(&end);
    timed_steps_free(&t);
    rb_destroy_world(w);
    return status;
}
