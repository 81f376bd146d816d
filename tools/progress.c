// Progress bar on stderr (see progress.h).
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <unistd.h>

#include "step_timing.h"

enum { BAR_WIDTH = 30 };
static const double k_show_after_ms = 2000.0;
static const double k_redraw_every_ms = 100.0;

void progress_begin(progress *p, int total)
{
    p->enabled = isatty(STDERR_FILENO) == 1;
    p->drawn = false;
    p->total = total;
    p->start_ms = timing_now_ms();
    p->last_draw_ms = 0.0;
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

void progress_update(progress *p, int done)
{
    if (!p->enabled || done <= 0 || done >= p->total)
        return;
    double now = timing_now_ms();
    double elapsed = now - p->start_ms;
    if (elapsed < k_show_after_ms || now - p->last_draw_ms < k_redraw_every_ms)
        return;
    p->last_draw_ms = now;
    double ms_per_step = elapsed / done;
    int filled = (int)((double)BAR_WIDTH * done / p->total);
    char bar[BAR_WIDTH + 1];
    for (int i = 0; i < BAR_WIDTH; ++i)
        bar[i] = i < filled ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    char eta[32];
    format_duration(eta, sizeof eta, ms_per_step * (p->total - done) / 1000.0);
    fprintf(stderr, "\r\033[K[%s] %d/%d steps  %.2f ms/step  ETA %s", bar, done, p->total, ms_per_step, eta);
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
