// The CPU backend's thread team: how many of the world's threads the parallel loops use this step.
//
// OpenMP threads meet at a barrier after every parallel loop, and libgomp's threads spin there (by
// default for a few milliseconds) before they sleep. When another process keeps a core busy, one
// team thread at a time is off the CPU, and the others spin until the scheduler gives it a slice
// back: each barrier can cost a scheduler slice, and a step costs many times its work. The library
// cannot change how libgomp waits (GOMP_SPINCOUNT and OMP_WAIT_POLICY are read once when libgomp
// loads), so it watches instead whether the team got the CPU, and runs with fewer threads while it
// does not.
//
// The measure: the time each team thread spent runnable but waiting for a CPU (the run delay of
// /proc/self/task/TID/schedstat), summed over the team, against the time spent in steps, read once per
// window of steps (at least RB_TEAM_WINDOW_MS of step time) from the calling thread. A thread that
// sleeps (passive waiting, a long serial part) is not runnable and does not count: only a busy CPU
// does. A window in which the team's threads waited, together, RB_TEAM_STARVED times its step time
// or more is starved: the team shrinks by the CPUs it did not get (to 1 with 2 threads). With a core
// kept busy by another process, 2 threads wait 1.1-1.4 times the step time; short bursts of other
// work on an otherwise idle machine gave up to 0.5 (and cost the team less than shrinking would).
//
// After a while the full team is tried again, by a probe: empty barriers with the full team,
// measured the same way. A whole step would do, but one starved step can cost hundreds of times its
// work (1.5 s for a 3.5 ms pyramid step was seen); a probe costs 4 ms idle, ~30 ms busy. It runs
// RB_TEAM_PROBE_WARMUP_MS unmeasured (a thread just created may wait until the scheduler moves it to
// a free CPU), then RB_TEAM_PROBE_MS in RB_TEAM_PROBE_PARTS parts, and fails if in its median part the
// threads waited RB_TEAM_PROBE_STARVED of the time (it is all barriers: any wait is lost). With a core
// busy every 1 ms part shows 1.0, idle ones 0-0.04, and a burst of other work spoils one part. A probe
// that passes gives the next window the full team; if that window starves, the probe counts as failed
// too. A world starts with one thread and probes after RB_TEAM_MIN_WAIT_MS of steps, for the same
// reason: its first step could be a starved one.
//
// The while before a probe is RB_TEAM_AMORTISE times the last probe's cost (at least
// RB_TEAM_MIN_WAIT_MS of shrunk step time), doubled for each failed probe (exponential back-off, up to
// RB_TEAM_MAX_WAIT_MS), so probes cost a few per cent at most on a machine that stays busy, and a
// free machine gets the full team back within that while. Each RB_TEAM_HEALTHY_MS of full-team step
// time without starvation undoes one doubling.
//
// The results do not depend on the team (every parallel loop of the CPU backend is written that
// way), so neither does anything decided here. Where the run delay cannot be read (no /proc, a
// kernel without schedstat), the team stays full.
#ifndef RB_THREAD_TEAM_H
#define RB_THREAD_TEAM_H

#include <stdint.h>

#define RB_TEAM_WATCH_MAX 64    // threads whose run delay is read (more: the first 64, scaled)
#define RB_TEAM_WINDOW_MS 5.0   // step time per measured window
#define RB_TEAM_STARVED 0.75    // starved: the team waited this many threads' worth of the window
#define RB_TEAM_PROBE_MS 3.0    // a probe's barriers last this long (measured),
#define RB_TEAM_PROBE_PARTS 3   // in parts measured one by one (the median part counts)
#define RB_TEAM_PROBE_WARMUP_MS 1.0 // after this long of them (not measured: new threads being placed)
#define RB_TEAM_PROBE_STARVED 0.25 // a probe fails when the team waited this many threads' worth of it
#define RB_TEAM_AMORTISE 8.0    // shrunk step time before a probe, times the probe's cost
#define RB_TEAM_MIN_WAIT_MS 10.0
#define RB_TEAM_MAX_WAIT_MS 2000.0
#define RB_TEAM_MAX_BACKOFF 8
#define RB_TEAM_HEALTHY_MS 1000.0 // full-team step time without starvation that undoes one doubling

struct rb_thread_team;

// Where the measurements come from: the clock and the threads' run delay. The defaults read
// CLOCK_MONOTONIC and /proc; tests put a simulated machine here.
typedef struct rb_team_source {
    double (*now_ms)(struct rb_thread_team *t);
    // Learns which threads form a team of `team` threads (called when a window opens for a team of
    // another size, in no parallel region); returns how many can be watched, 0 when none can.
    int (*capture)(struct rb_thread_team *t, int team);
    // The cumulative run delay (ns) of watched threads 0 .. n-1 into out; 0 on failure.
    int (*waited_ns)(struct rb_thread_team *t, int n, uint64_t *out);
    // A probe: about budget_ms of barriers with a team of `team` threads; writes how long it took and
    // how long the team waited for a CPU meanwhile (summed over its threads; the default source: as
    // if every part of the probe waited like its median part); 0: cannot measure.
    int (*probe)(struct rb_thread_team *t, int team, double budget_ms, double *wall_ms, double *waited_ms);
    void *user;
} rb_team_source;

typedef struct rb_thread_team {
    int threads;   // the full team: the world's thread count
    int team;      // this step's team, 1 .. threads

    // measuring
    rb_team_source src;
    int watched;                     // threads whose run delay is read, 0: cannot measure
    int watched_team;                // the team they were captured for
    int tid[RB_TEAM_WATCH_MAX];      // their thread ids (default source)
    int fd[RB_TEAM_WATCH_MAX];       // their schedstat files, -1: closed
    uint64_t wait0[RB_TEAM_WATCH_MAX]; // run delay at the window's start
    int capture_failures;            // in a row; at 3 the team stops trying to measure
    int window_open;
    double window_ms;                // step time in the window so far
    double step_start;               // clock at begin_step (ms)

    // deciding
    int probing;        // the window under way follows a probe that passed
    int backoff;        // probes that failed in a row, less those undone by healthy time
    double wait_ms;     // shrunk step time to run before the next probe
    double shrunk_ms;   // shrunk step time run since the team shrank (or the last failed probe)
    double healthy_ms;  // full-team step time without starvation since the last back-off change
    double probe_ms;    // what the last probe cost

    // what happened (tests, rubble's diagnostics)
    int windows, starved_windows, shrinks, probes, failed_probes;
    double last_wait_fraction; // waited / step time of the last window
} rb_thread_team;

// A team of `threads` with the default source. Never fails: without measurements the team stays full.
void rb_team_init(rb_thread_team *t, int threads);
// The same with a given source (tests).
void rb_team_init_with(rb_thread_team *t, int threads, const rb_team_source *src);
void rb_team_free(rb_thread_team *t);

// Around each world step; begin returns the team for the step.
int rb_team_begin_step(rb_thread_team *t);
void rb_team_end_step(rb_thread_team *t);

// The decision alone, after a window of `step_ms` step time in which the team waited `waited_ms`
// for a CPU (summed over its threads). Called by rb_team_end_step; tests call it directly too.
void rb_team_observe(rb_thread_team *t, double step_ms, double waited_ms);
// The same after a probe of the full team; returns whether it passed (the team is then full; else it
// is the full team less the CPUs it did not get).
int rb_team_observe_probe(rb_thread_team *t, double wall_ms, double waited_ms);

#endif
