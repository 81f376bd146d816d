// The period of an oscillation from the upward zero crossings of a signal sampled every step (linear
// interpolation within a step); for the pendulum and spring tests.
#ifndef RUBBLE_TESTS_CROSSINGS_H
#define RUBBLE_TESTS_CROSSINGS_H

typedef struct crossings {
    double first, last, prev;
    int count;
} crossings;

// The signal's value at time t, sampled every dt.
static inline void crossing_add(crossings *c, double t, double dt, double value)
{
    if (c->prev < 0.0 && value >= 0.0) {
        double tc = t - dt * value / (value - c->prev);
        if (c->count == 0)
            c->first = tc;
        c->last = tc;
        c->count++;
    }
    c->prev = value;
}

static inline double crossing_period(const crossings *c)
{
    return c->count > 1 ? (c->last - c->first) / (c->count - 1) : 0.0;
}

#endif
