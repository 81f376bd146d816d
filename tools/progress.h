// Progress bar on stderr for long runs: shown only when stderr is a terminal and the run has
// taken more than ~2 s, redrawn at most ~10 times a second, erased at the end.
#ifndef RUBBLE_CLI_PROGRESS_H
#define RUBBLE_CLI_PROGRESS_H

#include <stdbool.h>

typedef struct progress {
    bool enabled;     ///< stderr is a terminal
    bool drawn;       ///< something is on the line now
    int total;        ///< steps in the run
    double start_ms;  ///< when the run began (timing_now_ms)
    double last_draw_ms;
} progress;

void progress_begin(progress *p, int total);
/// Call after each step with the steps done so far; cheap when nothing is drawn.
void progress_update(progress *p, int done);
/// Erases the bar, if one was drawn.
void progress_end(progress *p);

#endif
