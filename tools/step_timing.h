// Timed stepping shared by `run` and `bench`: a monotonic clock, the step loop (with the progress
// bar) and the statistics the commands print.
#ifndef RUBBLE_CLI_STEP_TIMING_H
#define RUBBLE_CLI_STEP_TIMING_H

#include "rubble.h"

/// Milliseconds on a monotonic clock (CLOCK_MONOTONIC); only differences mean anything.
double timing_now_ms(void);

/// Median of v[0..n) (mean of the two middle values for even n); 0 for n = 0. v is not changed.
double timing_median(const double *v, int n);

/// Arithmetic mean of v[0..n); 0 for n = 0.
double timing_mean(const double *v, int n);

typedef struct timed_steps {
    int steps;          ///< steps taken
    double *ms;         ///< wall time of each rb_world_step, ms
    double total_ms;    ///< sum of ms
    int profile_skip;   ///< steps left out of profile_sum (the warm-up)
    rb_profile profile_sum; ///< rb_world_get_profile summed over steps [profile_skip, steps)
    int profile_count;  ///< steps in profile_sum
    int numeric_steps;  ///< steps that reported RB_ERR_NUMERIC (a body was frozen)
} timed_steps;

/// Called after step `done` (1..steps), outside the timed span; returns an exit status, and the run
/// stops at the first that is not 0.
typedef int (*timed_steps_hook)(void *context, rb_world_id world, int done);

/// Runs `steps` steps, timing each call; the profile of steps from `profile_skip` on is summed.
/// `hook` (may be NULL) runs after each step.
/// A step that reports RB_ERR_NUMERIC is counted and a warning printed on stderr (first time only);
/// any other failure stops the loop. Returns the exit status for the command (0, or 1 with the
/// library's message printed as "WHO: step N: message").
int timed_steps_run(rb_world_id world, int steps, int profile_skip, const char *who, timed_steps_hook hook,
                    void *context, timed_steps *out);
void timed_steps_free(timed_steps *t);

/// Mean of each phase over profile_count steps.
rb_profile timed_steps_mean_profile(const timed_steps *t);

#endif
