// `rubble run SCENE`: load a scene file or build a built-in scene, step it, print a summary and,
// on request, the final state as CSV and a state hash.
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "body_state.h"
#include "commands.h"
#include "scene_quality.h"
#include "state_hash.h"
#include "step_timing.h"

const char cmd_run_usage[] =
    "usage: rubble run SCENE [options]\n"
    "\n"
    "Run a scene and print a summary: backend, timing, per-phase split, contacts and the final\n"
    "state of a few bodies. SCENE is a scene file (docs/scene-format.md) or a built-in scene:\n"
    "pyramid, stack, pile, pile:S (S x S x 20 spheres), boxes. An existing file wins over a\n"
    "built-in name.\n"
    "\n"
    "options:\n"
    "  --backend B     cpu, opencl, cuda or auto (default auto: RUBBLE_BACKEND if set, else a\n"
    "                  CUDA GPU, else an OpenCL GPU, else cpu)\n"
    "  --solver S      contact solver: soft (CPU), batched, split, sequential (CPU; pe, seed 001),\n"
    "                  or default (the backend's choice: CPU soft, GPU batched; default)\n"
    "  --threads N     CPU threads, 1..1024; 0 (default) = RUBBLE_THREADS, OMP_NUM_THREADS, all cores\n"
    "  --steps N       steps to run (default 600)\n"
    "  --dt X          seconds per step, replaces the scene's (default: the scene's, else 1/60)\n"
    "  --substeps N    substeps per step, replaces the scene's (default: the scene's, else the\n"
    "                  solver's: batched 1, sequential 3, soft 4)\n"
    "  --no-sleep      keep bodies awake (replaces the scene's setting)\n"
    "  --seed S        seed of a built-in scene's jitter and rotations (default 1)\n"
    "  --out FILE      write the final state of every live body as CSV:\n"
    "                  slot,type,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n"
    "  --hash          print 'state-hash: <16 hex digits>', a 64-bit FNV-1a hash of the final state\n"
    "  --quiet         leave out the summary (errors and --hash still print)\n"
    "  -h, --help      show this help\n"
    "\n"
    "examples:\n"
    "  rubble run pyramid --steps 120\n"
    "  rubble run data/scenes/demo.yaml --backend cpu --out final.csv\n"
    "  rubble run pile --steps 60 --threads 1 --hash\n";

typedef struct run_options {
    cli_common common;
    const char *scene;
    float dt;          ///< 0 = keep the scene's
    int substeps;      ///< 0 = keep the scene's
    bool no_sleep;
    uint64_t seed;
    const char *out_path;
    bool hash;
    bool quiet;
} run_options;

// Returns -1 to go on, else the exit status (help printed or bad argument).
static int parse_run_options(int argc, char **argv, run_options *o)
{
    *o = (run_options){.common = cli_default_common(), .seed = 1};
    cli_args a;
    cli_args_init(&a, "run", argc, argv, 1);
    while (cli_args_next(&a)) {
        int common = cli_take_common(&a, &o->common);
        if (common < 0)
            return CLI_EXIT_USAGE;
        if (common > 0)
            continue;
        const char *v;
        long n;
        if (cli_args_is(&a, "-h") || cli_args_is(&a, "--help")) {
            fputs(cmd_run_usage, stdout);
            return CLI_EXIT_OK;
        } else if (cli_args_is(&a, "--dt")) {
            if (!(v = cli_args_value(&a)) || !cli_parse_positive_float("run", "--dt", v, &o->dt))
                return CLI_EXIT_USAGE;
        } else if (cli_args_is(&a, "--substeps")) {
            if (!(v = cli_args_value(&a)) || !cli_parse_int("run", "--substeps", v, 1, 1000, &n))
                return CLI_EXIT_USAGE;
            o->substeps = (int)n;
        } else if (cli_args_is(&a, "--seed")) {
            if (!(v = cli_args_value(&a)) || !cli_parse_u64("run", "--seed", v, &o->seed))
                return CLI_EXIT_USAGE;
        } else if (cli_args_is(&a, "--out")) {
            if (!(v = cli_args_value(&a)))
                return CLI_EXIT_USAGE;
            if (!*v)
                return cli_usage_error("run", "--out: expected a file name, got ''");
            o->out_path = v;
        } else if (cli_args_is(&a, "--no-sleep")) {
            if (!cli_args_no_value(&a))
                return CLI_EXIT_USAGE;
            o->no_sleep = true;
        } else if (cli_args_is(&a, "--hash")) {
            if (!cli_args_no_value(&a))
                return CLI_EXIT_USAGE;
            o->hash = true;
        } else if (cli_args_is(&a, "--quiet") || cli_args_is(&a, "-q")) {
            if (!cli_args_no_value(&a))
                return CLI_EXIT_USAGE;
            o->quiet = true;
        } else if (cli_args_is_option(&a)) {
            return cli_usage_error("run", "unknown option '%s'", a.name);
        } else if (o->scene) {
            return cli_usage_error("run", "one scene expected, got '%s' and '%s'", o->scene, a.name);
        } else {
            o->scene = a.name;
        }
    }
    if (!o->scene)
        return cli_usage_error("run", "missing SCENE (a scene file or pyramid, stack, pile, pile:S, boxes)");
    return -1;
}

// Loads the scene file or builds the built-in scene. Returns an exit status.
static int load_scene(rb_world_id w, const run_options *o, bool *is_file)
{
    *is_file = access(o->scene, F_OK) == 0;
    if (*is_file) {
        if (rb_load_scene(w, o->scene) != RB_OK)
            return cli_library_error("run", "cannot load the scene", w);
        return CLI_EXIT_OK;
    }
    if (rb_build_standard_scene(w, o->scene, o->seed) != RB_OK)
        return cli_library_error("run", "cannot build the scene", w);
    return CLI_EXIT_OK;
}

// --dt, --substeps and --no-sleep replace what the scene set.
static int apply_overrides(rb_world_id w, const run_options *o)
{
    if (o->dt > 0.0f || o->substeps > 0) {
        float dt;
        int substeps;
        if (rb_world_get_time_step(w, &dt, &substeps) != RB_OK)
            return cli_library_error("run", "cannot read the time step", w);
        if (rb_world_set_time_step(w, o->dt > 0.0f ? o->dt : dt, o->substeps > 0 ? o->substeps : substeps) != RB_OK)
            return cli_library_error("run", "cannot set the time step", w);
    }
    if (o->no_sleep && rb_world_enable_sleep(w, false) != RB_OK)
        return cli_library_error("run", "cannot turn sleeping off", w);
    return CLI_EXIT_OK;
}

static int write_csv(const char *path, const body_state *s)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "rubble run: --out: cannot open '%s' for writing: %s\n", path, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    fputs("slot,type,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n", f);
    for (int i = 0; i < s->count; ++i) {
        const rb_transform *t = &s->transform[i];
        const rb_vec3 *v = &s->linear[i], *w = &s->angular[i];
        fprintf(f, "%d,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", s->slot[i],
                body_type_name(s->type[i]), t->p.x, t->p.y, t->p.z, t->q.x, t->q.y, t->q.z, t->q.w, v->x, v->y, v->z,
                w->x, w->y, w->z);
    }
    int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        fprintf(stderr, "rubble run: --out: writing '%s' failed: %s\n", path, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
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
        printf("scene      %s (built-in, seed %" PRIu64 ")\n", o->scene, o->seed);
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
    printf("steps      %d x %.6g ms (%d substep%s), sleep %s\n", t->steps, dt * 1000.0, substeps,
           substeps == 1 ? "" : "s", def.enable_sleep ? "on" : o->no_sleep ? "off (--no-sleep)" : "off");
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

    standard_scene builtin;
    bool exists = access(o.scene, F_OK) == 0;
    if (!exists) {
        int kind = standard_scene_parse(o.scene, &builtin);
        if (kind < 0)
            return cli_usage_error("run", "scene '%s': S of pile:S must be a whole number >= 1", o.scene);
        if (kind == 0)
            return cli_usage_error("run",
                                   "scene '%s' is neither an existing file nor a built-in scene "
                                   "(pyramid, stack, pile, pile:S, boxes)",
                                   o.scene);
    }

    rb_world_id w;
    if ((status = cli_create_world("run", &o.common, &w)) != CLI_EXIT_OK)
        return status;
    bool is_file = false;
    timed_steps t = {0};
    body_state s = {0};
    if ((status = load_scene(w, &o, &is_file)) != CLI_EXIT_OK || (status = apply_overrides(w, &o)) != CLI_EXIT_OK)
        goto done;
    if ((status = timed_steps_run(w, o.common.steps, 0, "run", &t)) != CLI_EXIT_OK)
        goto done;
    rb_status st = body_state_read(w, &s);
    if (st != RB_OK) {
        if (st == RB_ERR_OUT_OF_MEMORY)
            fprintf(stderr, "rubble run: out of memory reading the final state\n");
        else
            cli_library_error("run", "cannot read the final state", w);
        status = CLI_EXIT_FAIL;
        goto done;
    }
    if (!o.quiet)
        print_summary(w, &o, is_file, &t, &s);
    cli_warn_imprecise("run", w);
    if (o.out_path && (status = write_csv(o.out_path, &s)) != CLI_EXIT_OK)
        goto done;
    if (o.hash)
        printf("state-hash: %016" PRIx64 "\n", state_hash(&s));
done:
    fflush(stdout);
    body_state_free(&s);
    timed_steps_free(&t);
    rb_destroy_world(w);
    return status;
}
