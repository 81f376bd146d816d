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

static int real_probe(rb_thread_team *t, int team, double budget_ms, double *wall_ms, double *waited_ms)
{
#ifdef _OPENMP
    uint64_t a[RB_TEAM_WATCH_MAX], b[RB_TEAM_WATCH_MAX];
    int ready = 0;
    for (int attempt = 0; attempt < 2 && !ready; ++attempt) {
        if (t->watched <= 0 || t->watched_team != team) {
            t->watched = real_capture(t, team);
            t->watched_team = team;
        }
        ready = t->watched > 0 && real_waited_ns(t, t->watched, a);
        if (!ready)
            t->watched = 0; // a thread is gone, or another thread steps the world: capture again
    }
    if (!ready)
        return 0;
    // pairs of barriers; between the two of a pair thread 0 decides when the warm-up is over (a
    // thread just created may wait until the scheduler moves it to a free CPU, which says nothing
    // about the machine), reads the run delay after each part, and stops after the last part, so
    // that every thread runs as many barriers
    const double part_ms = budget_ms / RB_TEAM_PROBE_PARTS;
    double start = real_now_ms(t), t0 = start, part_start = start, end = start;
    double share[RB_TEAM_PROBE_PARTS];
    int stop = 0, measuring = 0, ok = 1, parts = 0;
#pragma omp parallel num_threads(team) shared(stop, measuring, ok, parts, t0, part_start, end, share)
    {
        for (;;) {
#pragma omp barrier
            if (omp_get_thread_num() == 0) {
                double now = real_now_ms(t);
                if (!measuring && now - start >= RB_TEAM_PROBE_WARMUP_MS) {
                    ok = real_waited_ns(t, t->watched, a);
                    t0 = part_start = real_now_ms(t);
                    measuring = 1;
                    stop = !ok;
                } else if (measuring && now - part_start >= part_ms) {
                    ok = real_waited_ns(t, t->watched, b);
                    if (ok) {
                        uint64_t sum = 0;
                        for (int i = 0; i < t->watched; ++i)
                            sum += b[i] >= a[i] ? b[i] - a[i] : 0;
                        share[parts++] = (double)sum * 1e-6 / (now - part_start);
                        memcpy(a, b, sizeof a[0] * (size_t)t->watched);
                        end = now;
                        part_start = real_now_ms(t);
                    }
                    stop = !ok || parts == RB_TEAM_PROBE_PARTS;
                }
            }
#pragma omp barrier
            if (stop)
                break;
        }
    }
    if (!ok) {
        t->watched = 0;
        return 0;
    }
    // the median part: one burst of other work lands in one part, a busy core in every part
    for (int i = 1; i < RB_TEAM_PROBE_PARTS; ++i)
        for (int j = i; j > 0 && share[j - 1] > share[j]; --j) {
            double x = share[j];
            share[j] = share[j - 1];
            share[j - 1] = x;
        }
    *wall_ms = end - t0;
    *waited_ms = share[RB_TEAM_PROBE_PARTS / 2] * *wall_ms;
    return 1;
#else
    (void)t;
    (void)team;
    (void)budget_ms;
    (void)wall_ms;
    (void)waited_ms;
    return 0;
#endif
}

static const rb_team_source real_source = {real_now_ms, real_capture, real_waited_ns, real_probe, NULL};

// ---------------------------------------------------------------------------------------------
// The team
// ---------------------------------------------------------------------------------------------

void rb_team_init_with(rb_thread_team *t, int threads, const rb_team_source *src)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < RB_TEAM_WATCH_MAX; ++i)
        t->fd[i] = -1;
    t->threads = threads > 1 ? threads : 1;
    t->team = 1; // until the first probe (thread_team.h)
    t->wait_ms = RB_TEAM_MIN_WAIT_MS;
    t->src = *src;
}

void rb_team_init(rb_thread_team *t, int threads) { rb_team_init_with(t, threads, &real_source); }

void rb_team_free(rb_thread_team *t) { close_watched(t); }

// The shrunk step time to run before the next probe: the probe's cost amortised, doubled per failure.
static void set_wait(rb_thread_team *t)
{
    double cost = t->probe_ms > RB_TEAM_PROBE_MS ? t->probe_ms : RB_TEAM_PROBE_MS;
    double wait = cost * RB_TEAM_AMORTISE;
    if (wait < RB_TEAM_MIN_WAIT_MS)
        wait = RB_TEAM_MIN_WAIT_MS;
    for (int i = 0; i < t->backoff && wait < RB_TEAM_MAX_WAIT_MS; ++i)
        wait *= 2;
    t->wait_ms = wait < RB_TEAM_MAX_WAIT_MS ? wait : RB_TEAM_MAX_WAIT_MS;
    t->shrunk_ms = 0;
}

// A team that waited `frac` threads' worth: without the CPUs it did not get, at least one thread less.
static int team_less_lost(int team, double frac)
{
    int lost = (int)(frac + 0.5);
    if (lost < 1)
        lost = 1;
    return team - lost > 1 ? team - lost : 1;
}

static void probe_failed(rb_thread_team *t)
{
    t->failed_probes++;
    if (t->backoff < RB_TEAM_MAX_BACKOFF)
        t->backoff++;
    t->probing = 0;
}

void rb_team_observe(rb_thread_team *t, double step_ms, double waited_ms)
{
    if (step_ms <= 0)
        return;
    double frac = waited_ms / step_ms; // threads' worth of waiting
    t->windows++;
    t->last_wait_fraction = frac;
    if (frac < RB_TEAM_STARVED) {
        t->probing = 0; // the probe's promise held: the full team stays
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
    if (t->probing)
        probe_failed(t); // the probe passed, the steps after it did not
    t->team = team_less_lost(t->team, frac);
    t->shrinks++;
    set_wait(t);
}

int rb_team_observe_probe(rb_thread_team *t, double wall_ms, double waited_ms)
{
    t->probes++;
    t->probe_ms = wall_ms;
    t->last_wait_fraction = wall_ms > 0 ? waited_ms / wall_ms : 0;
    if (wall_ms > 0 && waited_ms < RB_TEAM_PROBE_STARVED * wall_ms) {
        t->team = t->threads;
        t->probing = 1; // confirmed (or not) by the next window
        t->window_open = 0;
        return 1;
    }
    probe_failed(t);
    t->team = team_less_lost(t->threads, t->last_wait_fraction);
    t->window_open = 0;
    set_wait(t);
    return 0;
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
    if (t->team < t->threads && t->shrunk_ms >= t->wait_ms && t->capture_failures < 3) {
        double wall = 0, waited = 0;
        if (t->src.probe(t, t->threads, RB_TEAM_PROBE_MS, &wall, &waited))
            rb_team_observe_probe(t, wall, waited);
        else
            t->team = t->threads; // cannot measure: the full team, as without measures
    }
    t->step_start = t->src.now_ms(t); // the probe is not step time
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
