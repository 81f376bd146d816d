// `rubble check`: run one scene on two backends and compare them kernel by kernel (docs/backend-opencl.md, cross-checking).
//
// Step 1 runs with one velocity iteration, from the same state on both backends, and compares what
// each kernel produced: the broad phase's pairs (equal, in the same order), the narrow phase's
// contacts (same pairs and points in the same order; points, normals and depths within 1e-5
// relative), and the velocities after one solver pass (within 1e-4). The remaining steps run with
// the world's iterations, and the trajectories are compared at the end: positions and orientations
// within --tolerance (docs/backend-opencl.md says why the default is what it is).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

enum { CHECK_OPTIONS = CLI_OPT_SOLVER | CLI_OPT_THREADS | CLI_OPT_STEPS };

// check's defaults: 60 steps, and the solver every backend has
static cli_common check_defaults(void)
{
    cli_common c = cli_default_common(CHECK_OPTIONS);
    c.steps = 60;
    c.solver = RB_SOLVER_BATCHED;
    return c;
}

void cmd_check_usage(FILE *f)
{
    fputs("usage: rubble check --scene NAME [options]\n"
          "\n"
          "Run a scene on two backends and compare them kernel by kernel: after the first step (one\n"
          "velocity iteration) the broad-phase pairs must be equal and in the same order, the contacts\n"
          "equal in order with points, normals and depths within 1e-5 relative, the velocities within\n"
          "1e-4; after --steps steps the positions within --tolerance. Prints the largest difference of\n"
          "each comparison; exits 1 when a tolerance is broken.\n"
          "\n"
          "options:\n",
          f);
    cli_print_option(f, CMD_HELP_WIDTH, "--scene NAME", "a scene file or a built-in scene: " CLI_BUILTIN_SCENES);
    char names[256] = "", text[512];
    size_t len = 0; // the library's backends but auto, which is a choice and not a backend
    for (int i = RB_BACKEND_AUTO + 1; strcmp(rb_backend_name((rb_backend)i), "unknown") != 0 && len < sizeof names; ++i)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", rb_backend_name((rb_backend)i));
    snprintf(text, sizeof text, "the two backends, any two of %s, the same one twice allowed (default cpu,opencl)",
             names);
    cli_print_option(f, CMD_HELP_WIDTH, "--backends A,B", text);
    cli_common d = check_defaults();
    cli_print_common_help(f, &d, CMD_HELP_WIDTH);
    cli_print_option(f, CMD_HELP_WIDTH, "--tolerance T", "largest position difference after N steps, m (default 1e-3)");
    cli_print_option(f, CMD_HELP_WIDTH, "-h, --help", "show this help");
    fputs("\n"
          "The solver must be one that both backends have; 'default' means batched here.\n"
          "\n"
          "example:\n"
          "  rubble check --scene pyramid --steps 60 --backends cpu,opencl --solver batched\n",
          f);
}

#define CONTACT_TOL 1e-5
#define VELOCITY_TOL 1e-4

typedef struct check_options {
    cli_common common;
    const char *scene;
    rb_backend backends[2];
    double tolerance;
} check_options;

static int parse_backends(const char *text, rb_backend out[2])
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", text);
    char *comma = strchr(buf, ',');
    if (!comma)
        return 0;
    *comma = '\0';
    return rb_backend_from_name(buf, &out[0]) == RB_OK && rb_backend_from_name(comma + 1, &out[1]) == RB_OK &&
           out[0] != RB_BACKEND_AUTO && out[1] != RB_BACKEND_AUTO;
}

static int parse(int argc, char **argv, check_options *o)
{
    *o = (check_options){.common = check_defaults(), .backends = {RB_BACKEND_CPU, RB_BACKEND_OPENCL},
                         .tolerance = 1e-3};
    cli_args a;
    cli_args_init(&a, "rubble check", argc, argv, 1);
    while (cli_args_next(&a)) {
        int common = cli_take_common(&a, &o->common);
        if (common < 0)
            return CLI_EXIT_USAGE;
        if (common > 0)
            continue;
        const char *v;
        if (cli_args_is(&a, "-h") || cli_args_is(&a, "--help")) {
            cmd_check_usage(stdout);
            return CLI_EXIT_OK;
        } else if (cli_args_is(&a, "--scene")) {
            if (!(v = cli_args_value(&a)))
                return CLI_EXIT_USAGE;
            o->scene = v;
        } else if (cli_args_is(&a, "--backends")) {
            if (!(v = cli_args_value(&a)))
                return CLI_EXIT_USAGE;
            if (!parse_backends(v, o->backends))
                return cli_usage_error("rubble check", "--backends: expected two backends but auto as A,B, got '%s'", v);
        } else if (cli_args_is(&a, "--tolerance")) {
            float t;
            if (!(v = cli_args_value(&a)) || !cli_parse_positive_float("rubble check", "--tolerance", v, &t))
                return CLI_EXIT_USAGE;
            o->tolerance = t;
        } else if (cli_args_is_option(&a)) {
            return cli_usage_error("rubble check", "unknown option '%s'", a.name);
        } else if (o->scene) {
            return cli_usage_error("rubble check", "one scene expected, got '%s' and '%s'", o->scene, a.name);
        } else {
            o->scene = a.name;
        }
    }
    if (!o->scene)
        return cli_usage_error("rubble check", "missing --scene NAME (a standard scene or a scene file)");
    // the kernels compared are those every backend has: the CPU's default (soft) has no GPU twin
    if (o->common.solver == RB_SOLVER_DEFAULT)
        o->common.solver = RB_SOLVER_BATCHED;
    return -1;
}

static int make_world(const check_options *o, int which, rb_world_id *w)
{
    cli_common c = o->common;
    c.backend = o->backends[which];
    int status = cli_create_world("rubble check", &c, w);
    if (status != CLI_EXIT_OK)
        return status;
    if ((status = cli_load_scene("rubble check", *w, o->scene, 1)) != CLI_EXIT_OK)
        rb_destroy_world(*w);
    return status;
}

// |a - b| relative to max(1, |a|, |b|): relative for large values, absolute near zero.
static double rel(double a, double b)
{
    double scale = fmax(1.0, fmax(fabs(a), fabs(b)));
    return fabs(a - b) / scale;
}

static double rel3(rb_vec3 a, rb_vec3 b)
{
    return fmax(rel(a.x, b.x), fmax(rel(a.y, b.y), rel(a.z, b.z)));
}

typedef struct report {
    int failed;
} report;

static void line(report *r, const char *kernel, const char *what, double value, double limit, const char *note)
{
    int ok = value <= limit;
    printf("  %-10s %-34s %12.3g  (limit %g)  %s%s\n", kernel, what, value, limit, ok ? "ok" : "BROKEN",
           note ? note : "");
    r->failed |= !ok;
}

static int compare_pairs(rb_world_id wa, rb_world_id wb, report *r)
{
    int na = 0, nb = 0;
    if (rb_world_get_pair_count(wa, &na) != RB_OK || rb_world_get_pair_count(wb, &nb) != RB_OK)
        return 0;
    rb_shape_pair *pa = malloc(sizeof *pa * (size_t)(na + 1)), *pb = malloc(sizeof *pb * (size_t)(nb + 1));
    if (!pa || !pb || rb_world_get_pairs(wa, 0, na, pa) != RB_OK || rb_world_get_pairs(wb, 0, nb, pb) != RB_OK) {
        free(pa), free(pb);
        return 0;
    }
    int mismatched = na == nb ? 0 : abs(na - nb), first = -1;
    for (int i = 0; i < na && i < nb; ++i) {
        if (pa[i].shape_a.index1 != pb[i].shape_a.index1 || pa[i].shape_b.index1 != pb[i].shape_b.index1) {
            mismatched++;
            if (first < 0)
                first = i;
        }
    }
    char note[96];
    snprintf(note, sizeof note, "  (%d and %d pairs%s)", na, nb, first >= 0 ? ", first difference at " : "");
    if (first >= 0)
        snprintf(note + strlen(note), sizeof note - strlen(note), "%d", first);
    line(r, "find_pairs", "pairs not equal in order", mismatched, 0, note);
    free(pa), free(pb);
    return 1;
}

static int compare_contacts(rb_world_id wa, rb_world_id wb, report *r)
{
    int na = 0, nb = 0;
    if (rb_world_get_contact_count(wa, &na) != RB_OK || rb_world_get_contact_count(wb, &nb) != RB_OK)
        return 0;
    rb_contact *ca = malloc(sizeof *ca * (size_t)(na + 1)), *cb = malloc(sizeof *cb * (size_t)(nb + 1));
    if (!ca || !cb || rb_world_get_contacts(wa, 0, na, ca) != RB_OK || rb_world_get_contacts(wb, 0, nb, cb) != RB_OK) {
        free(ca), free(cb);
        return 0;
    }
    int mismatched = abs(na - nb);
    double point = 0, normal = 0, depth = 0;
    for (int i = 0; i < na && i < nb; ++i) {
        if (ca[i].shape_a.index1 != cb[i].shape_a.index1 || ca[i].shape_b.index1 != cb[i].shape_b.index1) {
            mismatched++;
            continue;
        }
        point = fmax(point, rel3(ca[i].point, cb[i].point));
        normal = fmax(normal, rel3(ca[i].normal, cb[i].normal));
        depth = fmax(depth, rel(ca[i].depth, cb[i].depth));
    }
    char note[64];
    snprintf(note, sizeof note, "  (%d and %d points)", na, nb);
    line(r, "collide", "contact points not paired in order", mismatched, 0, note);
    line(r, "collide", "largest point difference (rel.)", point, CONTACT_TOL, NULL);
    line(r, "collide", "largest normal difference (rel.)", normal, CONTACT_TOL, NULL);
    line(r, "collide", "largest depth difference (rel.)", depth, CONTACT_TOL, NULL);
    free(ca), free(cb);
    return 1;
}

typedef struct state {
    int n;
    rb_transform *xf;
    rb_vec3 *v, *w;
} state;

static int read_state(rb_world_id w, state *s)
{
    rb_counters c;
    if (rb_world_get_counters(w, &c) != RB_OK)
        return 0;
    s->n = c.body_slots;
    s->xf = malloc(sizeof *s->xf * (size_t)(s->n + 1));
    s->v = malloc(sizeof *s->v * (size_t)(s->n + 1));
    s->w = malloc(sizeof *s->w * (size_t)(s->n + 1));
    return s->xf && s->v && s->w && rb_world_get_transforms(w, 0, s->n, s->xf) == RB_OK &&
           rb_world_get_velocities(w, 0, s->n, s->v, s->w) == RB_OK;
}

static void free_state(state *s)
{
    free(s->xf), free(s->v), free(s->w);
    memset(s, 0, sizeof *s);
}

static int step(rb_world_id w, int n)
{
    for (int i = 0; i < n; ++i)
        if (rb_world_step(w) != RB_OK)
            return cli_library_error("rubble check", "step failed", w);
    return CLI_EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
    check_options o;
    int status = parse(argc, argv, &o);
    if (status >= 0)
        return status;
    rb_world_id w[2];
    if ((status = make_world(&o, 0, &w[0])) != CLI_EXIT_OK)
        return status;
    if ((status = make_world(&o, 1, &w[1])) != CLI_EXIT_OK) {
        rb_destroy_world(w[0]);
        return status;
    }
    rb_world_def def;
    rb_world_get_def(w[0], &def);
    rb_world_info info[2];
    rb_world_get_info(w[0], &info[0]);
    rb_world_get_info(w[1], &info[1]);
    printf("check %s: %s (%s) against %s (%s), solver %s\n", o.scene, info[0].backend, info[0].device,
           info[1].backend, info[1].device, info[0].solver);
    report r = {0};
    state sa = {0}, sb = {0};

    // step 1, one velocity iteration: kernel by kernel
    for (int i = 0; i < 2 && status == CLI_EXIT_OK; ++i) {
        if (rb_world_set_iterations(w[i], 1, def.position_iterations) != RB_OK)
            status = cli_library_error("rubble check", "cannot set the iterations", w[i]);
        else
            status = step(w[i], 1);
    }
    if (status != CLI_EXIT_OK)
        goto done;
    printf("step 1 (one solver pass), largest differences:\n");
    if (!compare_pairs(w[0], w[1], &r) || !compare_contacts(w[0], w[1], &r) || !read_state(w[0], &sa) ||
        !read_state(w[1], &sb)) {
        status = cli_library_error("rubble check", "cannot read the results", w[0]);
        goto done;
    }
    double dv = 0, dw = 0;
    for (int i = 0; i < sa.n && i < sb.n; ++i) {
        dv = fmax(dv, rel3(sa.v[i], sb.v[i]));
        dw = fmax(dw, rel3(sa.w[i], sb.w[i]));
    }
    line(&r, "solve", "linear velocity difference (rel.)", dv, VELOCITY_TOL, NULL);
    line(&r, "solve", "angular velocity difference (rel.)", dw, VELOCITY_TOL, NULL);
    free_state(&sa), free_state(&sb);

    // the rest of the horizon with the world's iterations: trajectories
    for (int i = 0; i < 2 && status == CLI_EXIT_OK; ++i) {
        if (rb_world_set_iterations(w[i], def.iterations, def.position_iterations) != RB_OK)
            status = cli_library_error("rubble check", "cannot set the iterations", w[i]);
        else
            status = step(w[i], o.common.steps - 1);
    }
    if (status != CLI_EXIT_OK)
        goto done;
    if (!read_state(w[0], &sa) || !read_state(w[1], &sb)) {
        status = cli_library_error("rubble check", "cannot read the bodies", w[0]);
        goto done;
    }
    double dp = 0, dq = 0;
    int worst = -1;
    for (int i = 0; i < sa.n && i < sb.n; ++i) {
        rb_vec3 a = sa.xf[i].p, b = sb.xf[i].p;
        double d = sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
        if (d > dp)
            dp = d, worst = i;
        // angle of the relative rotation conj(qa) qb; atan2 stays accurate near 0, where acos does not
        // (in double, where products of floats are exact, and in pairs that cancel exactly when the
        // orientations are equal: then the difference is exactly 0)
        double aw = sa.xf[i].q.w, ax = sa.xf[i].q.x, ay = sa.xf[i].q.y, az = sa.xf[i].q.z;
        double bw = sb.xf[i].q.w, bx = sb.xf[i].q.x, by = sb.xf[i].q.y, bz = sb.xf[i].q.z;
        double rw = aw * bw + ax * bx + ay * by + az * bz;
        double rx = (aw * bx - ax * bw) + (az * by - ay * bz);
        double ry = (aw * by - ay * bw) + (ax * bz - az * bx);
        double rz = (aw * bz - az * bw) + (ay * bx - ax * by);
        dq = fmax(dq, 2.0 * atan2(sqrt(rx * rx + ry * ry + rz * rz), fabs(rw)));
    }
    printf("after %d steps (%d bodies), largest differences:\n", o.common.steps, sa.n);
    char note[48] = "";
    if (worst >= 0)
        snprintf(note, sizeof note, "  (body slot %d)", worst);
    line(&r, "trajectory", "position difference, m", dp, o.tolerance, note);
    line(&r, "trajectory", "orientation difference, rad", dq, 10.0 * o.tolerance, NULL);
    printf("%s\n", r.failed ? "FAILED: a tolerance is broken" : "passed");
    status = r.failed ? CLI_EXIT_FAIL : CLI_EXIT_OK;
done:
    free_state(&sa), free_state(&sb);
    rb_destroy_world(w[0]);
    rb_destroy_world(w[1]);
    return status;
}
