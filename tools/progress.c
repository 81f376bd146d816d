// Progress bar on stderr (see progress.h).
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "step_timing.h"

enum { BAR_WIDTH = 30 };
static const double k_show_after_ms = 2000.0;
static const double k_redraw_every_ms = 100.0;
static const double k_sample_every_ms = 125.0;
static const double k_max_window_ms = 4000.0; // the rate of the last 4 s at most ...
static const double k_min_window_ms = 1000.0; // ... and no estimate from less than a second of steps

void progress_begin(progress *p, int total)
{
    memset(p, 0, sizeof *p);
    p->enabled = isatty(STDERR_FILENO) == 1;
    p->total = total;
    p->start_ms = timing_now_ms();
    p->last_sample_ms = p->start_ms;
    p->sample_ms[0] = p->start_ms; // step 0 at the start
    p->sample_done[0] = 0;
    p->samples = 1;
}

static void format_duration(char *buf, size_t size, double seconds)
{
    if (seconds < 0.0)
        seconds = 0.0;
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, size, "%ldh%02ldm", s / 3600, (s / 60) % 60);
    else if (s >= 60)
        snprintf(buf, size, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(buf, size, "%lds", s);
}

double progress_recent_ms_per_step(const progress *p, double window_ms, double min_window_ms)
{
    if (p->samples < 2)
        return -1.0;
    int newest = (p->samples - 1) % PROGRESS_SAMPLES;
    // walk back from the newest sample while the samples stay within the window
    int kept = p->samples < PROGRESS_SAMPLES ? p->samples : PROGRESS_SAMPLES;
    int oldest = newest;
    for (int k = 1; k < kept; ++k) {
        int i = (newest - k + PROGRESS_SAMPLES) % PROGRESS_SAMPLES;
        if (p->sample_ms[newest] - p->sample_ms[i] > window_ms)
            break;
        oldest = i;
    }
    double span = p->sample_ms[newest] - p->sample_ms[oldest];
    int steps = p->sample_done[newest] - p->sample_done[oldest];
    if (span < min_window_ms || steps <= 0)
        return -1.0;
    return span / steps;
}

void progress_update(progress *p, int done)
{
    if (!p->enabled || done <= 0 || done >= p->total)
        return;
    double now = timing_now_ms();
    if (now - p->last_sample_ms >= k_sample_every_ms) {
        int i = p->samples % PROGRESS_SAMPLES;
        p->sample_ms[i] = now;
        p->sample_done[i] = done;
        ++p->samples;
        p->last_sample_ms = now;
    }
    if (now - p->start_ms < k_show_after_ms || now - p->last_draw_ms < k_redraw_every_ms)
        return;
    p->last_draw_ms = now;
    int filled = (int)((double)BAR_WIDTH * done / p->total);
    char bar[BAR_WIDTH + 1];
    for (int i = 0; i < BAR_WIDTH; ++i)
        bar[i] = i < filled ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    // the newer half of the run so far, at most the last 4 s: while the cost of a step still climbs,
    // older steps would only pull the estimate down
    double elapsed = now - p->start_ms;
    double window = elapsed / 2.0 < k_max_window_ms ? elapsed / 2.0 : k_max_window_ms;
    double ms_per_step = progress_recent_ms_per_step(p, window, k_min_window_ms);
    if (ms_per_step > 0.0) {
        char eta[32];
        format_duration(eta, sizeof eta, ms_per_step * (p->total - done) / 1000.0);
        fprintf(stderr, "\r\033[K[%s] %d/%d steps  %.2f ms/step  ETA %s", bar, done, p->total, ms_per_step, eta);
    } else {
        fprintf(stderr, "\r\033[K[%s] %d/%d steps", bar, done, p->total);
    }
    fflush(stderr);
    p->drawn = true;
}

void progress_end(progress *p)
{
    if (p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->drawn = false;
    }
}
