// Progress bar on stderr for long runs: shown only when stderr is a terminal and the run has
// taken more than ~2 s, redrawn at most ~10 times a second, erased at the end.
//
// The time left is estimated from the recent rate only: the steps of the newer half of the time
// so far, at most the last 4 s, not the mean since the start. The cost of a step changes during a
// run (a pile of spheres costs little while it falls and several times more once it has landed and
// every sphere touches its neighbours), so the mean since the start promised well under half the
// real time. Until that window spans a second the bar shows no estimate.
#ifndef RUBBLE_CLI_PROGRESS_H
#define RUBBLE_CLI_PROGRESS_H

#include <stdbool.h>

enum { PROGRESS_SAMPLES = 48 }; ///< one per 125 ms: 6 s of history, more than the 4 s window

typedef struct progress {
    bool enabled;     ///< stderr is a terminal
    bool drawn;       ///< something is on the line now
    int total;        ///< steps in the run
    double start_ms;  ///< when the run began (timing_now_ms)
    double last_draw_ms;
    double last_sample_ms;
    double sample_ms[PROGRESS_SAMPLES]; ///< ring of (time, steps done) samples, one per ~125 ms
    int sample_done[PROGRESS_SAMPLES];
    int samples;      ///< samples taken so far (the ring holds the last PROGRESS_SAMPLES)
} progress;

void progress_begin(progress *p, int total);
/// Call after each step with the steps done so far; cheap when nothing is drawn.
void progress_update(progress *p, int done);
/// Erases the bar, if one was drawn.
void progress_end(progress *p);

/// Milliseconds per step over the newest samples spanning at most `window_ms`, or a negative value
/// while they span less than `min_window_ms`.
double progress_recent_ms_per_step(const progress *p, double window_ms, double min_window_ms);

#endif
