// Timed stepping (see step_timing.h).
#define _POSIX_C_SOURCE 200809L
#include "step_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_common.h"
#include "progress.h"

double timing_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double timing_median(const double *v, int n)
{
    if (n <= 0)
        return 0.0;
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return timing_mean(v, n);
    memcpy(sorted, v, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_double);
    double m = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    free(sorted);
    return m;
}

double timing_mean(const double *v, int n)
{
    if (n <= 0)
        return 0.0;
    double sum = 0.0;
    for (int i = 0; i < n; ++i)
        sum += v[i];
    return sum / n;
}

static void add_profile(rb_profile *sum, const rb_profile *p)
{
    sum->step += p->step;
    sum->integrate += p->integrate;
    sum->bounds += p->bounds;
    sum->broad += p->broad;
    sum->narrow += p->narrow;
    sum->batches += p->batches;
    sum->correct += p->correct;
    sum->solve += p->solve;
    sum->sleep += p->sleep;
    sum->transfer += p->transfer;
}

rb_profile timed_steps_mean_profile(const timed_steps *t)
{
    rb_profile m = t->profile_sum;
    if (t->profile_count > 0) {
        float k = 1.0f / (float)t->profile_count;
        m.step *= k, m.integrate *= k, m.bounds *= k, m.broad *= k, m.narrow *= k;
        m.batches *= k, m.correct *= k, m.solve *= k, m.sleep *= k, m.transfer *= k;
    }
    return m;
}

void timed_steps_free(timed_steps *t)
{
    free(t->ms);
    memset(t, 0, sizeof *t);
}

int timed_steps_run(rb_world_id world, int steps, int profile_skip, const char *who, timed_steps_hook hook,
                    void *context, timed_steps *out)
{
    memset(out, 0, sizeof *out);
    out->profile_skip = profile_skip;
    out->ms = malloc((size_t)(steps > 0 ? steps : 1) * sizeof *out->ms);
    if (!out->ms) {
        fprintf(stderr, "%s: out of memory for %d step timings\n", who, steps);
        return CLI_EXIT_FAIL;
    }
    progress bar;
    progress_begin(&bar, steps);
    int status = CLI_EXIT_OK;
    for (int i = 0; i < steps; ++i) {
        double t0 = timing_now_ms();
        rb_status s = rb_world_step(world);
        double t1 = timing_now_ms();
        if (s != RB_OK && s != RB_ERR_NUMERIC) {
            progress_end(&bar);
            fprintf(stderr, "%s: step %d: %s\n", who, i + 1, rb_last_error(world));
            status = CLI_EXIT_FAIL;
            break;
        }
        if (s == RB_ERR_NUMERIC && out->numeric_steps++ == 0) {
            progress_end(&bar);
            fprintf(stderr, "%s: warning: step %d: %s (continuing; the body was frozen)\n", who, i + 1,
                    rb_last_error(world));
        }
        out->ms[i] = t1 - t0;
        out->total_ms += t1 - t0;
        out->steps = i + 1;
        if (i >= profile_skip) {
            rb_profile p;
            if (rb_world_get_profile(world, &p) == RB_OK) {
                add_profile(&out->profile_sum, &p);
                ++out->profile_count;
            }
        }
        if (hook && (status = hook(context, world, i + 1)) != CLI_EXIT_OK) {
            progress_end(&bar);
            break;
        }
        progress_update(&bar, i + 1);
    }
    progress_end(&bar);
    return status;
}
