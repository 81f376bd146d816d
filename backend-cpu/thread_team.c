// The CPU backend's thread team (thread_team.h): shrinks while the team's threads wait for a CPU,
// probes the full team again with exponential back-off.
#define _GNU_SOURCE
#include "thread_team.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/syscall.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

// ---------------------------------------------------------------------------------------------
// The default source: CLOCK_MONOTONIC and the run delay in /proc/self/task/TID/schedstat
// ("time on the CPU, time runnable on a run queue, slices", in ns; Linux with CONFIG_SCHED_INFO).
// ---------------------------------------------------------------------------------------------

static double real_now_ms(rb_thread_team *t)
{
    (void)t;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void close_watched(rb_thread_team *t)
{
    for (int i = 0; i < RB_TEAM_WATCH_MAX; ++i) {
        if (t->fd[i] >= 0)
            close(t->fd[i]);
        t->fd[i] = -1;
        t->tid[i] = 0;
    }
}

// Both numbers of a schedstat line; 0 when it cannot be read.
static int read_schedstat(int fd, uint64_t *on_cpu, uint64_t *delay)
{
    char buf[128];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    char *end;
    errno = 0;
    unsigned long long a = strtoull(buf, &end, 10);
    if (end == buf)
        return 0;
    char *p = end;
    unsigned long long b = strtoull(p, &end, 10);
    if (end == p || errno)
        return 0;
    *on_cpu = a;
    *delay = b;
    return 1;
}

static int real_capture(rb_thread_team *t, int team)
{
#if defined(_OPENMP) && defined(__linux__)
    int tids[RB_TEAM_WATCH_MAX];
    int got = 1;
    memset(tids, 0, sizeof tids);
    // the threads that run this team's loops: libgomp gives team member i the same pool thread
    // from region to region while the team size stays
#pragma omp parallel num_threads(team)
    {
        int i = omp_get_thread_num();
        if (i < RB_TEAM_WATCH_MAX)
            tids[i] = (int)syscall(SYS_gettid);
        if (i == 0)
            got = omp_get_num_threads();
    }
    if (got > RB_TEAM_WATCH_MAX)
        got = RB_TEAM_WATCH_MAX;
    for (int i = 0; i < RB_TEAM_WATCH_MAX; ++i) {
        if (i < got && tids[i] == t->tid[i] && t->fd[i] >= 0)
            continue; // same thread, file already open
        if (t->fd[i] >= 0)
            close(t->fd[i]);
        t->fd[i] = -1;
        t->tid[i] = 0;
        if (i >= got)
            continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", tids[i]);
        t->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
        if (t->fd[i] < 0)
            return 0;
        t->tid[i] = tids[i];
    }
    // a kernel without scheduler statistics prints zeros; the calling thread has certainly run
    uint64_t on_cpu = 0, delay = 0;
    if (!read_schedstat(t->fd[0], &on_cpu, &delay) || on_cpu == 0)
        return 0;
    return got;
#else
    (void)t;
    (void)team;
    return 0;
#endif
}

static int real_waited_ns(rb_thread_team *t, int n, uint64_t *out)
{
#ifdef __linux__
    // stepped from another thread than the one captured: another libgomp pool (one per calling thread)
    if ((int)syscall(SYS_gettid) != t->tid[0])
        return 0;
#endif
    for (int i = 0; i < n; ++i) {
        uint64_t on_cpu;
        if (t->fd[i] < 0 || !read_schedstat(t->fd[i], &on_cpu, &out[i]))
            return 0; // the thread is gone (libgomp rebuilt its pool): capture again
    }
    return 1;
}

static const rb_team_source real_source = {real_now_ms, real_capture, real_waited_ns, NULL};

// ---------------------------------------------------------------------------------------------
// The team
// ---------------------------------------------------------------------------------------------

void rb_team_init_with(rb_thread_team *t, int threads, const rb_team_source *src)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < RB_TEAM_WATCH_MAX; ++i)
        t->fd[i] = -1;
    t->threads = threads > 1 ? threads : 1;
    t->team = t->threads;
    t->src = *src;
}

void rb_team_init(rb_thread_team *t, int threads) { rb_team_init_with(t, threads, &real_source); }

void rb_team_free(rb_thread_team *t) { close_watched(t); }

void rb_team_observe(rb_thread_team *t, double step_ms, double waited_ms)
{
    if (step_ms <= 0)
        return;
    double frac = waited_ms / step_ms; // threads' worth of waiting
    t->windows++;
    t->last_wait_fraction = frac;
    if (frac < RB_TEAM_STARVED) {
        t->probing = 0; // a probe that passes keeps the full team
        if (t->team == t->threads) {
            t->healthy_ms += step_ms;
            if (t->healthy_ms >= RB_TEAM_HEALTHY_MS) {
                if (t->backoff > 0)
                    t->backoff--;
                t->healthy_ms = 0;
            }
        }
        return;
    }
    // starved: drop the CPUs the team did not get (at least one thread)
    t->starved_windows++;
    t->healthy_ms = 0;
    int lost = (int)(frac + 0.5);
    if (lost < 1)
        lost = 1;
    if (t->probing) {
        t->failed_probes++;
        if (t->backoff < RB_TEAM_MAX_BACKOFF)
            t->backoff++;
        t->probing = 0;
    }
    int team = t->team - lost;
    t->team = team > 1 ? team : 1;
    t->shrinks++;
    // run shrunk for many times this window's cost before trying again, longer after each failed probe
    double wait = step_ms * RB_TEAM_AMORTISE;
    if (wait < RB_TEAM_MIN_WAIT_MS)
        wait = RB_TEAM_MIN_WAIT_MS;
    for (int i = 0; i < t->backoff && wait < RB_TEAM_MAX_WAIT_MS; ++i)
        wait *= 2;
    t->wait_ms = wait < RB_TEAM_MAX_WAIT_MS ? wait : RB_TEAM_MAX_WAIT_MS;
    t->shrunk_ms = 0;
}

// Starts a measured window: the run delay of the team's threads now.
static void open_window(rb_thread_team *t)
{
    t->window_ms = 0;
    t->window_open = 0;
    if (t->capture_failures >= 3)
        return; // this machine cannot tell: the team stays as it is
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (t->watched <= 0 || t->watched_team != t->team) {
            t->watched = t->src.capture(t, t->team);
            t->watched_team = t->team;
            if (t->watched <= 0) {
                t->capture_failures++;
                return;
            }
            t->capture_failures = 0;
        }
        if (t->src.waited_ns(t, t->watched, t->wait0)) {
            t->window_open = 1;
            return;
        }
        t->watched = 0; // a thread is gone, or another thread steps the world: capture again
    }
}

int rb_team_begin_step(rb_thread_team *t)
{
    if (t->threads <= 1)
        return 1;
    t->step_start = t->src.now_ms(t);
    if (t->team < t->threads && !t->probing && t->shrunk_ms >= t->wait_ms) {
        t->team = t->threads; // probe: one window with the full team
        t->probing = 1;
        t->probes++;
        t->window_open = 0;
    }
    if (t->team > 1 && !t->window_open)
        open_window(t);
    return t->team;
}

void rb_team_end_step(rb_thread_team *t)
{
    if (t->threads <= 1)
        return;
    double dt = t->src.now_ms(t) - t->step_start;
    if (dt < 0)
        dt = 0;
    if (t->team < t->threads)
        t->shrunk_ms += dt;
    if (!t->window_open)
        return;
    t->window_ms += dt;
    if (t->window_ms < RB_TEAM_WINDOW_MS)
        return;
    uint64_t now[RB_TEAM_WATCH_MAX];
    t->window_open = 0;
    if (!t->src.waited_ns(t, t->watched, now)) {
        t->watched = 0; // capture again at the next window
        return;
    }
    uint64_t sum = 0;
    for (int i = 0; i < t->watched; ++i)
        sum += now[i] >= t->wait0[i] ? now[i] - t->wait0[i] : 0;
    double waited = (double)sum * 1e-6;
    if (t->team > t->watched && t->watched == RB_TEAM_WATCH_MAX)
        waited *= (double)t->team / (double)t->watched; // the unwatched threads wait like the watched

    rb_team_observe(t, t->window_ms, waited);
}
