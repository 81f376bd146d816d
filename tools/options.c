// Argument parsing shared by the commands (see options.h).
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cli_common cli_default_common(void)
{
    return (cli_common){.backend = RB_BACKEND_AUTO, .solver = RB_SOLVER_DEFAULT, .threads = 0, .steps = 600};
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (command)
        fprintf(stderr, "rubble %s: %s (see 'rubble %s --help')\n", command, msg, command);
    else
        fprintf(stderr, "rubble: %s (see 'rubble help')\n", msg);
    return CLI_EXIT_USAGE;
}

int cli_library_error(const char *command, const char *what, rb_world_id world)
{
    const char *msg = rb_last_error(world);
    fprintf(stderr, "rubble %s: %s: %s\n", command, what, msg && *msg ? msg : "(no message from the library)");
    return CLI_EXIT_FAIL;
}

void cli_args_init(cli_args *a, const char *command, int argc, char **argv, int first)
{
    memset(a, 0, sizeof *a);
    a->command = command;
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
        cli_usage_error(a->command, "option %s needs a value", a->name);
        return NULL;
    }
    return a->argv[a->next++];
}

bool cli_args_no_value(const cli_args *a)
{
    if (a->inline_value) {
        cli_usage_error(a->command, "option %s takes no value, got '%s'", a->name, a->inline_value);
        return false;
    }
    return true;
}

bool cli_parse_int(const char *command, const char *option, const char *text, long min, long max, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno == ERANGE || end == text || *end != '\0' || v < min || v > max) {
        cli_usage_error(command, "%s: expected a whole number in [%ld, %ld], got '%s'", option, min, max, text);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_u64(const char *command, const char *option, const char *text, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    unsigned long long v = strtoull(text, &end, hex ? 16 : 10);
    if (errno == ERANGE || end == text || *end != '\0' || text[0] == '-' || text[0] == '+') {
        cli_usage_error(command, "%s: expected an unsigned 64-bit whole number (decimal or 0x hex), got '%s'", option, text);
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

bool cli_parse_positive_float(const char *command, const char *option, const char *text, float *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno == ERANGE || end == text || *end != '\0' || !isfinite(v) || !(v > 0.0) || !((float)v > 0.0f)) {
        cli_usage_error(command, "%s: expected a finite number > 0, got '%s'", option, text);
        return false;
    }
    *out = (float)v;
    return true;
}

int cli_take_common(cli_args *a, cli_common *c)
{
    const char *v;
    if (cli_args_is(a, "--backend")) {
        if (!(v = cli_args_value(a)))
            return -1;
        rb_backend b;
        if (rb_backend_from_name(v, &b) != RB_OK) {
            cli_usage_error(a->command, "--backend: unknown backend '%s': expected cpu, opencl, cuda or auto", v);
            return -1;
        }
        c->backend = b;
        return 1;
    }
    if (cli_args_is(a, "--solver")) {
        if (!(v = cli_args_value(a)))
            return -1;
        rb_solver s;
        if (rb_solver_from_name(v, &s) != RB_OK) {
            // the library's message lists the solvers it knows
            cli_usage_error(a->command, "--solver: %s", rb_last_error(rb_null_world_id));
            return -1;
        }
        c->solver = s;
        return 1;
    }
    if (cli_args_is(a, "--threads")) {
        long n;
        if (!(v = cli_args_value(a)) || !cli_parse_int(a->command, "--threads", v, 0, 1024, &n))
            return -1;
        c->threads = (int)n;
        return 1;
    }
    if (cli_args_is(a, "--steps")) {
        long n;
        if (!(v = cli_args_value(a)) || !cli_parse_int(a->command, "--steps", v, 1, 10000000, &n))
            return -1;
        c->steps = (int)n;
        return 1;
    }
    return 0;
}
