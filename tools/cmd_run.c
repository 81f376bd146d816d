// `rubble run SCENE`: load a scene file or build a built-in scene, step it, print a summary and,
// on request, the final state as CSV, the body poses over time (--trajectory) and a state hash.
// Every output file is opened before the first step, so a bad path fails at once.
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "body_state.h"
#include "commands.h"
#include "state_hash.h"
#include "step_timing.h"

enum { RUN_OPTIONS = CLI_OPT_BACKEND | CLI_OPT_SOLVER | CLI_OPT_THREADS | CLI_OPT_STEPS | CLI_OPT_DT |
                     CLI_OPT_SUBSTEPS | CLI_OPT_NO_SLEEP | CLI_OPT_SEED };

void cmd_run_usage(FILE *f)
{
    fputs("usage: rubble run SCENE [options]\n"
          "\n"
          "Run a scene and print a summary: backend, timing, per-phase split, contacts and the final\n"
          "state of a few bodies. SCENE is a scene file (docs/scene-format.md) or a built-in scene,\n"
          "one of " CLI_BUILTIN_SCENES ".\n"
          "An existing file wins over a built-in name.\n"
          "\n"
          "options:\n",
          f);
    cli_common d = cli_default_common(RUN_OPTIONS);
    cli_print_common_help(f, &d, CMD_HELP_WIDTH);
    cli_print_option(f, CMD_HELP_WIDTH, "--out FILE",
                     "write the final state of every live body as CSV: "
                     "slot,type,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz");
    cli_print_option(f, CMD_HELP_WIDTH, "--trajectory FILE",
                     "write the pose of every moving (dynamic or kinematic) body at step 0, every --every steps "
                     "and the last step: step,time,body,x,y,z,qx,qy,qz,qw as CSV, or one JSON object per row "
                     "(JSON lines) when FILE ends in .jsonl or .json");
    cli_print_option(f, CMD_HELP_WIDTH, "--every N", "steps between two --trajectory samples (default 1)");
    cli_print_option(f, CMD_HELP_WIDTH, "--format F",
                     "csv or jsonl: the --trajectory format, whatever FILE's extension (default: by extension, "
                     "csv for any other)");
    cli_print_option(f, CMD_HELP_WIDTH, "--hash",
                     "print 'state-hash: <16 hex digits>', a 64-bit FNV-1a hash of the final state");
    cli_print_option(f, CMD_HELP_WIDTH, "-q, --quiet", "leave out the summary (errors and --hash still print)");
    cli_print_option(f, CMD_HELP_WIDTH, "-h, --help", "show this help");
    fputs("\n"
          "Output files are opened before the first step: a path that cannot be written stops the run\n"
          "at once (exit 1).\n"
          "\n"
          "examples:\n"
          "  rubble run pyramid --steps 120\n"
          "  rubble run data/scenes/demo.yaml --backend cpu --out final.csv\n"
          "  rubble run stack --steps 60 --trajectory poses.csv --every 10\n"
          "  rubble run pile --steps 60 --threads 1 --hash\n",
          f);
}

typedef enum trajectory_format {
    TRAJECTORY_BY_EXTENSION,
    TRAJECTORY_CSV,
    TRAJECTORY_JSONL,
} trajectory_format;

typedef struct run_options {
    cli_common common;
    const char *scene;
    const char *out_path;
    const char *trajectory_path;
    int every;                 ///< --every, steps between trajectory samples
    trajectory_format format;  ///< --format
    bool hash;
    bool quiet;
} run_options;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

// Returns -1 to go on, else the exit status (help printed or bad argument).
static int parse_run_options(int argc, char **argv, run_options *o)
{
    *o = (run_options){.common = cli_default_common(RUN_OPTIONS), .every = 1};
    bool every_given = false;
    cli_args a;
    cli_args_init(&a, "rubble run", argc, argv, 1);
    while (cli_args_next(&a)) {
        int common = cli_take_common(&a, &o->common);
        if (common < 0)
            return CLI_EXIT_USAGE;
        if (common > 0)
            continue;
        const char *v;
        long n;
        if (cli_args_is(&a, "-h") || cli_args_is(&a, "--help")) {
            cmd_run_usage(stdout);
            return CLI_EXIT_OK;
        } else if (cli_args_is(&a, "--out") || cli_args_is(&a, "--trajectory")) {
            if (!(v = cli_args_value(&a)))
                return CLI_EXIT_USAGE;
            if (!*v)
                return cli_usage_error("rubble run", "%s: expected a file name, got ''", a.name);
            *(cli_args_is(&a, "--out") ? &o->out_path : &o->trajectory_path) = v;
        } else if (cli_args_is(&a, "--every")) {
            if (!(v = cli_args_value(&a)) || !cli_parse_int("rubble run", "--every", v, 1, 10000000, &n))
                return CLI_EXIT_USAGE;
            o->every = (int)n;
            every_given = true;
        } else if (cli_args_is(&a, "--format")) {
            if (!(v = cli_args_value(&a)))
                return CLI_EXIT_USAGE;
            if (strcmp(v, "csv") == 0)
                o->format = TRAJECTORY_CSV;
            else if (strcmp(v, "jsonl") == 0 || strcmp(v, "json") == 0)
                o->format = TRAJECTORY_JSONL;
            else
                return cli_usage_error("rubble run", "--format: expected csv or jsonl, got '%s'", v);
        } else if (cli_args_is(&a, "--hash")) {
            if (!cli_args_no_value(&a))
                return CLI_EXIT_USAGE;
            o->hash = true;
        } else if (cli_args_is(&a, "--quiet") || cli_args_is(&a, "-q")) {
            if (!cli_args_no_value(&a))
                return CLI_EXIT_USAGE;
            o->quiet = true;
        } else if (cli_args_is_option(&a)) {
            return cli_usage_error("rubble run", "unknown option '%s'", a.name);
        } else if (o->scene) {
            return cli_usage_error("rubble run", "one scene expected, got '%s' and '%s'", o->scene, a.name);
        } else {
            o->scene = a.name;
        }
    }
    if (!o->scene)
        return cli_usage_error("rubble run", "missing SCENE (a scene file or " CLI_BUILTIN_SCENES ")");
    if (!o->trajectory_path && (every_given || o->format != TRAJECTORY_BY_EXTENSION))
        return cli_usage_error("rubble run", "%s needs --trajectory FILE", every_given ? "--every" : "--format");
    if (o->trajectory_path && o->format == TRAJECTORY_BY_EXTENSION)
        o->format = ends_with(o->trajectory_path, ".jsonl") || ends_with(o->trajectory_path, ".json")
                        ? TRAJECTORY_JSONL
                        : TRAJECTORY_CSV;
    return -1;
}

// --dt, --substeps and --no-sleep replace what the scene set.
static int apply_overrides(rb_world_id w, const cli_common *c)
{
    if (c->dt > 0.0f || c->substeps > 0) {
        float dt;
        int substeps;
        if (rb_world_get_time_step(w, &dt, &substeps) != RB_OK)
            return cli_library_error("rubble run", "cannot read the time step", w);
        if (rb_world_set_time_step(w, c->dt > 0.0f ? c->dt : dt, c->substeps > 0 ? c->substeps : substeps) != RB_OK)
            return cli_library_error("rubble run", "cannot set the time step", w);
    }
    if (c->no_sleep && rb_world_enable_sleep(w, false) != RB_OK)
        return cli_library_error("rubble run", "cannot turn sleeping off", w);
    return CLI_EXIT_OK;
}

// Closes an output file, reporting a write that failed. Returns an exit status.
static int close_output(FILE *f, const char *option, const char *path)
{
    if (!f)
        return CLI_EXIT_OK;
    int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        fprintf(stderr, "rubble run: %s: writing '%s' failed: %s\n", option, path, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

static void write_csv(FILE *f, const body_state *s)
{
    fputs("slot,type,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n", f);
    for (int i = 0; i < s->count; ++i) {
        const rb_transform *t = &s->transform[i];
        const rb_vec3 *v = &s->linear[i], *w = &s->angular[i];
        fprintf(f, "%d,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", s->slot[i],
                body_type_name(s->type[i]), t->p.x, t->p.y, t->p.z, t->q.x, t->q.y, t->q.z, t->q.w, v->x, v->y, v->z,
                w->x, w->y, w->z);
    }
}

// ---- --trajectory ---------------------------------------------------------------------------------

typedef struct trajectory {
    FILE *f;
    trajectory_format format;
    int every;
    int last;    ///< the run's last step, always written
    double dt;   ///< s per step, for the time column
    body_state s;
} trajectory;

static int read_bodies(rb_world_id w, body_state *s)
{
    body_state_free(s);
    rb_status st = body_state_read(w, s);
    if (st == RB_OK)
        return CLI_EXIT_OK;
    if (st == RB_ERR_OUT_OF_MEMORY) {
        fprintf(stderr, "rubble run: out of memory reading the bodies\n");
        return CLI_EXIT_FAIL;
    }
    return cli_library_error("rubble run", "cannot read the bodies", w);
}

// The poses after `step` steps: one row per dynamic or kinematic body.
static int trajectory_write(trajectory *tr, rb_world_id w, int step)
{
    int status = read_bodies(w, &tr->s);
    if (status != CLI_EXIT_OK)
        return status;
    double time = step * tr->dt;
    for (int i = 0; i < tr->s.count; ++i) {
        if (tr->s.type[i] == RB_BODY_STATIC)
            continue;
        const rb_transform *t = &tr->s.transform[i];
        if (tr->format == TRAJECTORY_JSONL)
            fprintf(tr->f,
                    "{\"step\":%d,\"time\":%.9g,\"body\":%d,\"x\":%.9g,\"y\":%.9g,\"z\":%.9g,\"qx\":%.9g,"
                    "\"qy\":%.9g,\"qz\":%.9g,\"qw\":%.9g}\n",
                    step, time, tr->s.slot[i], t->p.x, t->p.y, t->p.z, t->q.x, t->q.y, t->q.z, t->q.w);
        else
            fprintf(tr->f, "%d,%.9g,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", step, time, tr->s.slot[i], t->p.x,
                    t->p.y, t->p.z, t->q.x, t->q.y, t->q.z, t->q.w);
    }
    if (ferror(tr->f)) {
        fprintf(stderr, "rubble run: --trajectory: writing failed at step %d: %s\n", step, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

// timed_steps_hook: every `every` steps and the last
static int trajectory_after_step(void *context, rb_world_id w, int done)
{
    trajectory *tr = context;
    if (done % tr->every != 0 && done != tr->last)
        return CLI_EXIT_OK;
    return trajectory_write(tr, w, done);
}

static void print_body_line(const body_state *s, int i)
{
    const rb_vec3 p = s->transform[i].p, v = s->linear[i];
    double speed = sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
    printf("  slot %-7d position (%9.4f, %9.4f, %9.4f) m   speed %.4f m/s\n", s->slot[i], p.x, p.y, p.z, speed);
}

// The first three dynamic bodies and the last one.
static void print_final_bodies(const body_state *s)
{
    int dynamic = body_state_count_type(s, RB_BODY_DYNAMIC);
    if (dynamic == 0) {
        printf("final      no dynamic bodies\n");
        return;
    }
    printf("final      %s:\n", dynamic > 4 ? "first 3 dynamic bodies and the last" : "dynamic bodies");
    int shown = 0, last = -1;
    for (int i = 0; i < s->count; ++i) {
        if (s->type[i] != RB_BODY_DYNAMIC)
            continue;
        last = i;
        if (shown < 3 || dynamic <= 4) {
            print_body_line(s, i);
            ++shown;
        }
    }
    if (dynamic > 4) {
        printf("  ...\n");
        print_body_line(s, last);
    }
}

static void print_summary(rb_world_id w, const run_options *o, bool is_file, const timed_steps *t,
                          const body_state *s)
{
    rb_world_info info = {0};
    rb_counters c = {0};
    rb_world_def def = rb_default_world_def();
    rb_world_get_info(w, &info);
    rb_world_get_counters(w, &c);
    rb_world_get_def(w, &def);
    float dt = def.time_step;
    int substeps = def.substeps;
    rb_profile p = timed_steps_mean_profile(t);

    if (is_file)
        printf("scene      %s (file)\n", o->scene);
    else
        printf("scene      %s (built-in, seed %" PRIu64 ")\n", o->scene, o->common.seed);
    printf("backend    %s on %s\n", info.backend, info.device);
    printf("           chosen: %s\n", info.selection);
    if (def.solver == RB_SOLVER_SEQUENTIAL) // iterations are caps per contact there, not sweeps
        printf("solver     %s, up to %g x contacts resolutions per batch, %g x per shock level\n", info.solver,
               (double)def.sequential.max_iterations, (double)def.sequential.shock_iterations);
    else if (def.solver == RB_SOLVER_SOFT) // one solve and one relax pass per substep
        printf("solver     %s, a solve and a relax pass per substep, shock propagation\n", info.solver);
    else
        printf("solver     %s, %d velocity + %d position iterations\n", info.solver, def.iterations,
               def.position_iterations);
    printf("threads    %d\n", info.threads);
    printf("bodies     %d dynamic, %d kinematic, %d static\n", body_state_count_type(s, RB_BODY_DYNAMIC),
           body_state_count_type(s, RB_BODY_KINEMATIC), body_state_count_type(s, RB_BODY_STATIC));
    int joints = 0;
    rb_world_get_joint_count(w, &joints);
    printf("joints     %d\n", joints);
    int hulls = 0, convex = 0;
    if (body_state_count_hulls(w, s, &hulls, &convex) != RB_OK)
        printf("hulls      (cannot read the convex shapes: %s)\n", rb_last_error(w));
    else if (convex > 0)
        printf("hulls      %d, for %d convex shape%s\n", hulls, convex, convex == 1 ? "" : "s");
    else
        printf("hulls      0\n");
    printf("steps      %d x %.6g ms (%d substep%s), sleep %s\n", t->steps, dt * 1000.0, substeps,
           substeps == 1 ? "" : "s", def.enable_sleep ? "on" : o->common.no_sleep ? "off (--no-sleep)" : "off");
    printf("time       %.3f ms/step median, %.3f ms/step mean, %.3f s total\n", timing_median(t->ms, t->steps),
           timing_mean(t->ms, t->steps), t->total_ms / 1000.0);
    printf("phases     ms/step, mean over all steps:\n");
    printf("           integrate %.3f  bounds %.3f  broad %.3f  narrow %.3f  batches %.3f\n", p.integrate, p.bounds,
           p.broad, p.narrow, p.batches);
    printf("           correct %.3f  solve %.3f  sleep %.3f  transfer %.3f\n", p.correct, p.solve, p.sleep,
           p.transfer);
    printf("contacts   %d points in %d touching pairs at the end; awake bodies %d\n", c.contacts, c.manifolds,
           c.awake_bodies);
    if (c.frozen_bodies > 0 || t->numeric_steps > 0)
        printf("frozen     %d bodies frozen after a non-finite state (%d steps reported it)\n", c.frozen_bodies,
               t->numeric_steps);
    print_final_bodies(s);
}

int cmd_run(int argc, char **argv)
{
    run_options o;
    int status = parse_run_options(argc, argv, &o);
    if (status >= 0)
        return status;

    // outputs first: a path that cannot be written fails before any work
    FILE *out = NULL;
    trajectory tr = {.format = o.format, .every = o.every, .last = o.common.steps};
    if (o.out_path && !(out = cli_open_output("rubble run", "--out", o.out_path)))
        return CLI_EXIT_FAIL;
    if (o.trajectory_path && !(tr.f = cli_open_output("rubble run", "--trajectory", o.trajectory_path))) {
        if (out)
            fclose(out);
        return CLI_EXIT_FAIL;
    }

    rb_world_id w = rb_null_world_id;
    timed_steps t = {0};
    body_state s = {0};
    if ((status = cli_create_world("rubble run", &o.common, &w)) != CLI_EXIT_OK)
        goto done;
    bool is_file = cli_scene_is_file(o.scene);
    if ((status = cli_load_scene("rubble run", w, o.scene, o.common.seed)) != CLI_EXIT_OK ||
        (status = apply_overrides(w, &o.common)) != CLI_EXIT_OK)
        goto done;
    if (tr.f) {
        float dt = 0.0f;
        int substeps;
        rb_world_get_time_step(w, &dt, &substeps);
        tr.dt = dt;
        if (tr.format == TRAJECTORY_CSV)
            fputs("step,time,body,x,y,z,qx,qy,qz,qw\n", tr.f);
        if ((status = trajectory_write(&tr, w, 0)) != CLI_EXIT_OK)
            goto done;
    }
    if ((status = timed_steps_run(w, o.common.steps, 0, "rubble run", tr.f ? trajectory_after_step : NULL, &tr, &t)) !=
        CLI_EXIT_OK)
        goto done;
    if ((status = read_bodies(w, &s)) != CLI_EXIT_OK)
        goto done;
    if (!o.quiet)
        print_summary(w, &o, is_file, &t, &s);
    cli_warn_imprecise("rubble run", w);
    if (out)
        write_csv(out, &s);
    if (o.hash)
        printf("state-hash: %016" PRIx64 "\n", state_hash(&s));
done:
    fflush(stdout);
    int closed = close_output(out, "--out", o.out_path);
    int closed_tr = close_output(tr.f, "--trajectory", o.trajectory_path);
    if (status == CLI_EXIT_OK)
        status = closed != CLI_EXIT_OK ? closed : closed_tr;
    if (status != CLI_EXIT_OK) { // no partial output is left behind
        if (out)
            remove(o.out_path);
        if (tr.f)
            remove(o.trajectory_path);
    }
    body_state_free(&s);
    body_state_free(&tr.s);
    timed_steps_free(&t);
    if (rb_world_is_valid(w))
        rb_destroy_world(w);
    return status;
}
