// The command line shared by `rubble` and `rubble-view` (see cli_common.h).
#define _POSIX_C_SOURCE 200809L
#include "cli_common.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { HELP_COLUMNS = 100 };

cli_common cli_default_common(unsigned accepted)
{
    return (cli_common){.accepted = accepted,
                        .backend = RB_BACKEND_AUTO,
                        .solver = RB_SOLVER_DEFAULT,
                        .threads = 0,
                        .steps = 600,
                        .seed = 1};
}

// ---- messages -------------------------------------------------------------------------------------

int cli_usage_error(const char *who, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (who)
        fprintf(stderr, "%s: %s (see '%s --help')\n", who, msg, who);
    else
        fprintf(stderr, "rubble: %s (see 'rubble help')\n", msg);
    return CLI_EXIT_USAGE;
}

int cli_library_error(const char *who, const char *what, rb_world_id world)
{
    const char *msg = rb_last_error(world);
    fprintf(stderr, "%s: %s: %s\n", who, what, msg && *msg ? msg : "(no message from the library)");
    return CLI_EXIT_FAIL;
}

// ---- the argument walker --------------------------------------------------------------------------

void cli_args_init(cli_args *a, const char *who, int argc, char **argv, int first)
{
    memset(a, 0, sizeof *a);
    a->who = who;
    a->argc = argc;
    a->argv = argv;
    a->next = first;
}

bool cli_args_next(cli_args *a)
{
    a->inline_value = NULL;
    if (a->next >= a->argc)
        return false;
    const char *arg = a->argv[a->next++];
    a->name = arg;
    const char *eq = strchr(arg, '=');
    if (arg[0] == '-' && arg[1] == '-' && eq) {
        size_t len = (size_t)(eq - arg);
        if (len >= sizeof a->name_buf)
            len = sizeof a->name_buf - 1;
        memcpy(a->name_buf, arg, len);
        a->name_buf[len] = '\0';
        a->name = a->name_buf;
        a->inline_value = eq + 1;
    }
    return true;
}

bool cli_args_is(const cli_args *a, const char *name)
{
    return strcmp(a->name, name) == 0;
}

bool cli_args_is_option(const cli_args *a)
{
    return a->name[0] == '-' && a->name[1] != '\0';
}

const char *cli_args_value(cli_args *a)
{
    if (a->inline_value)
        return a->inline_value;
    if (a->next >= a->argc) {
        cli_usage_error(a->who, "option %s needs a value", a->name);
        return NULL;
    }
    return a->argv[a->next++];
}

bool cli_args_no_value(const cli_args *a)
{
    if (a->inline_value) {
        cli_usage_error(a->who, "option %s takes no value, got '%s'", a->name, a->inline_value);
        return false;
    }
    return true;
}

// ---- conversions ----------------------------------------------------------------------------------

bool cli_parse_int(const char *who, const char *option, const char *text, long min, long max, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno == ERANGE || end == text || *end != '\0' || v < min || v > max) {
        cli_usage_error(who, "%s: expected a whole number in [%ld, %ld], got '%s'", option, min, max, text);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_u64(const char *who, const char *option, const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    unsigned long long v = strtoull(text, &end, hex ? 16 : 10);
    if (errno == ERANGE || end == text || *end != '\0' || text[0] == '-' || text[0] == '+') {
        cli_usage_error(who, "%s: expected an unsigned 64-bit whole number (decimal or 0x hex), got '%s'", option,
                        text);
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

bool cli_parse_positive_float(const char *who, const char *option, const char *text, float *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno == ERANGE || end == text || *end != '\0' || !isfinite(v) || !(v > 0.0) || !((float)v > 0.0f)) {
        cli_usage_error(who, "%s: expected a finite number > 0, got '%s'", option, text);
        return false;
    }
    *out = (float)v;
    return true;
}

// ---- the common options ---------------------------------------------------------------------------

int cli_take_common(cli_args *a, cli_common *c)
{
    const char *v;
    long n;
    unsigned ok = c->accepted;
    if ((ok & CLI_OPT_BACKEND) && cli_args_is(a, "--backend")) {
        if (!(v = cli_args_value(a)))
            return -1;
        if (rb_backend_from_name(v, &c->backend) != RB_OK) {
            // the library's sentence lists the backends it knows
            cli_usage_error(a->who, "--backend: %s", rb_last_error(rb_null_world_id));
            return -1;
        }
        return 1;
    }
    if ((ok & CLI_OPT_SOLVER) && cli_args_is(a, "--solver")) {
        if (!(v = cli_args_value(a)))
            return -1;
        if (rb_solver_from_name(v, &c->solver) != RB_OK) {
            cli_usage_error(a->who, "--solver: %s", rb_last_error(rb_null_world_id));
            return -1;
        }
        return 1;
    }
    if ((ok & CLI_OPT_THREADS) && cli_args_is(a, "--threads")) {
        if (!(v = cli_args_value(a)) || !cli_parse_int(a->who, "--threads", v, 0, 1024, &n))
            return -1;
        c->threads = (int)n;
        return 1;
    }
    if ((ok & CLI_OPT_STEPS) && cli_args_is(a, "--steps")) {
        if (!(v = cli_args_value(a)) || !cli_parse_int(a->who, "--steps", v, 1, 10000000, &n))
            return -1;
        c->steps = (int)n;
        return 1;
    }
    if ((ok & CLI_OPT_SEED) && cli_args_is(a, "--seed")) {
        if (!(v = cli_args_value(a)) || !cli_parse_u64(a->who, "--seed", v, &c->seed))
            return -1;
        return 1;
    }
    if ((ok & CLI_OPT_NO_SLEEP) && cli_args_is(a, "--no-sleep")) {
        if (!cli_args_no_value(a))
            return -1;
        c->no_sleep = true;
        return 1;
    }
    if ((ok & CLI_OPT_DT) && cli_args_is(a, "--dt")) {
        if (!(v = cli_args_value(a)) || !cli_parse_positive_float(a->who, "--dt", v, &c->dt))
            return -1;
        return 1;
    }
    if ((ok & CLI_OPT_SUBSTEPS) && cli_args_is(a, "--substeps")) {
        if (!(v = cli_args_value(a)) || !cli_parse_int(a->who, "--substeps", v, 1, 64, &n))
            return -1;
        c->substeps = (int)n;
        return 1;
    }
    return 0;
}

// ---- help -----------------------------------------------------------------------------------------

// "a, b, c or d" from names[0..n)
static void join_names(char *buf, size_t size, const char *const *names, int n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < size; ++i) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int w = snprintf(buf + len, size - len, "%s%s", sep, names[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

// The library's names: rb_*_name answers "unknown" past the last value.
enum { MAX_NAMES = 32 };

static int backend_names(const char *names[MAX_NAMES])
{
    int n = 0;
    for (int i = 0; n < MAX_NAMES && strcmp(rb_backend_name((rb_backend)i), "unknown") != 0; ++i)
        names[n++] = rb_backend_name((rb_backend)i);
    return n;
}

// default last: the real solvers first
static int solver_names(const char *names[MAX_NAMES])
{
    int n = 0;
    for (int i = 1; n < MAX_NAMES - 1 && strcmp(rb_solver_name((rb_solver)i), "unknown") != 0; ++i)
        names[n++] = rb_solver_name((rb_solver)i);
    names[n++] = rb_solver_name(RB_SOLVER_DEFAULT);
    return n;
}

void cli_backend_names(char *buf, size_t size)
{
    const char *names[MAX_NAMES];
    join_names(buf, size, names, backend_names(names));
}

void cli_solver_names(char *buf, size_t size)
{
    const char *names[MAX_NAMES];
    join_names(buf, size, names, solver_names(names));
}

// What each solver is, for the help; a solver the library adds later is listed by its name alone
// until it gets a line here.
static const struct {
    rb_solver solver;
    const char *text;
} k_solver_text[] = {
    {RB_SOLVER_SOFT, "substeps with soft contacts and relax passes, impacts resolved first (CPU only)"},
    {RB_SOLVER_SEQUENTIAL, "sequential impulses, largest closing speed first, with shock propagation (CPU only)"},
    {RB_SOLVER_BATCHED, "projected Gauss-Seidel over graph-coloured batches (every backend)"},
    {RB_SOLVER_SPLIT, "projected Jacobi with mass splitting (every backend)"},
    {RB_SOLVER_DEFAULT, "the backend's choice: soft on the CPU, batched on OpenCL and CUDA"},
};

static const char *solver_text(const char *name)
{
    for (size_t i = 0; i < sizeof k_solver_text / sizeof k_solver_text[0]; ++i)
        if (strcmp(rb_solver_name(k_solver_text[i].solver), name) == 0)
            return k_solver_text[i].text;
    return "";
}

void cli_print_option(FILE *f, int width, const char *name, const char *text)
{
    int indent = 2 + width + 1;
    int col = fprintf(f, "  %-*s ", width, name);
    if (col > indent) { // a long name: the text starts on the next line
        fprintf(f, "\n%*s", indent, "");
        col = indent;
    }
    const char *p = text;
    bool first = true;
    while (*p) {
        while (*p == ' ')
            ++p;
        size_t word = strcspn(p, " ");
        if (word == 0)
            break;
        if (!first && col + 1 + (int)word > HELP_COLUMNS) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
            first = true;
        }
        col += fprintf(f, "%s%.*s", first ? "" : " ", (int)word, p);
        first = false;
        p += word;
    }
    fputc('\n', f);
}

void cli_print_common_help(FILE *f, const cli_common *d, int width)
{
    char text[1024], names[256];
    unsigned ok = d->accepted;
    if (ok & CLI_OPT_BACKEND) {
        cli_backend_names(names, sizeof names);
        snprintf(text, sizeof text, "%s (default %s%s)", names, rb_backend_name(d->backend),
                 d->backend == RB_BACKEND_AUTO
                     ? ": RUBBLE_BACKEND if set, else a CUDA GPU, else an OpenCL GPU, else cpu"
                     : "");
        cli_print_option(f, width, "--backend B", text);
    }
    if (ok & CLI_OPT_SOLVER) {
        const char *list[MAX_NAMES];
        int n = solver_names(list);
        snprintf(text, sizeof text, "contact solver, one of (default: %s):", rb_solver_name(d->solver));
        cli_print_option(f, width, "--solver S", text);
        for (int i = 0; i < n; ++i) {
            char name[64];
            snprintf(name, sizeof name, "  %s", list[i]);
            cli_print_option(f, width, name, solver_text(list[i]));
        }
    }
    if (ok & CLI_OPT_THREADS)
        cli_print_option(f, width, "--threads N",
                         "CPU threads, 1..1024; 0 (default) = RUBBLE_THREADS, else OMP_NUM_THREADS, else all cores");
    if (ok & CLI_OPT_STEPS) {
        snprintf(text, sizeof text, "steps to run, 1..10000000 (default %d)", d->steps);
        cli_print_option(f, width, "--steps N", text);
    }
    if (ok & CLI_OPT_DT)
        cli_print_option(f, width, "--dt X", "seconds per step, replaces the scene's (default: the scene's, else 1/60)");
    if (ok & CLI_OPT_SUBSTEPS)
        cli_print_option(f, width, "--substeps N",
                         "substeps per step, 1..64, replaces the scene's (default: the scene's, else the solver's own; "
                         "the summary shows it)");
    if (ok & CLI_OPT_NO_SLEEP)
        cli_print_option(f, width, "--no-sleep", "keep bodies awake (replaces the scene's setting)");
    if (ok & CLI_OPT_SEED) {
        snprintf(text, sizeof text, "seed of a built-in scene's jitter and rotations (default %llu)",
                 (unsigned long long)d->seed);
        cli_print_option(f, width, "--seed S", text);
    }
}

// ---- scenes and outputs ---------------------------------------------------------------------------

bool cli_scene_is_file(const char *scene)
{
    return access(scene, F_OK) == 0 || strchr(scene, '/') || strchr(scene, '.');
}

int cli_load_scene(const char *who, rb_world_id world, const char *scene, uint64_t seed)
{
    if (cli_scene_is_file(scene)) {
        if (access(scene, R_OK) != 0) { // no built-in scene has a '/' or a '.' in its name
            fprintf(stderr, "%s: cannot open the scene file '%s': %s\n", who, scene, strerror(errno));
            return CLI_EXIT_FAIL;
        }
        if (rb_load_scene(world, scene) != RB_OK)
            return cli_library_error(who, "cannot load the scene", world);
    } else if (rb_build_standard_scene(world, scene, seed) != RB_OK) {
        return cli_library_error(who, "cannot build the scene", world);
    }
    return CLI_EXIT_OK;
}

FILE *cli_open_output(const char *who, const char *option, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "%s: %s: cannot open '%s' for writing: %s\n", who, option, path, strerror(errno));
    return f;
}

bool cli_check_output(const char *who, const char *option, const char *path)
{
    bool existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "%s: %s: cannot open '%s' for writing: %s\n", who, option, path, strerror(errno));
        return false;
    }
    fclose(f);
    if (!existed)
        remove(path);
    return true;
}
