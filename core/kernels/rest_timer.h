// The rest timer of island sleeping (soft, batched and split solvers), per body: how long it has been
// slow. An island falls asleep when its smallest timer reaches time_to_sleep.
#ifndef RB_KERNELS_REST_TIMER_H
#define RB_KERNELS_REST_TIMER_H

#include "vec_math.h"

// m/s: a slow body whose surface speed rises this far above the lowest it had since its timer started
// is gaining speed, not resting
#define RB_REST_SPEED_RISE 0.005f

// The timer after a step of h: grown while the body is slow and not gaining speed, else zero. Slow: the
// speed of its surface |v| + r |w| (r its bounding radius about the centre of mass; Box2D's test)
// within lin_tol, or |v| and |w| each within their own tolerance. The first lets a small ball that
// rocks by a few hundredths of a radian per second rest, which the angular tolerance alone did not.
// Gaining speed: a body that gravity accelerates from rest (a ball on a gentle slope, a box just past
// its friction angle) stays slow for a second or more, and slept within time_to_sleep (a ball on 0.25°,
// a box 0.3° past its friction angle); its speed climbs steadily from the lowest it had since the timer
// started (`low`, kept per body), where a resting body's only jitters about it.
RB_FN float rb_rest_timer(float timer, RB_GLOBAL float *low, int sleep_enabled, rb_float3 v, rb_float3 w, float radius,
                          float lin_tol, float ang_tol, float h)
{
    float sv = rb_sqrtf(rb_len_sq(v)), sw = rb_sqrtf(rb_len_sq(w)), speed = sv + radius * sw;
    int slow = speed <= lin_tol || (sv <= lin_tol && sw <= ang_tol);
    if (!(sleep_enabled && slow) || (timer > 0.0f && speed > *low + RB_REST_SPEED_RISE)) {
        *low = speed;
        return 0.0f;
    }
    if (timer == 0.0f || !(speed >= *low)) // the lowest since the timer started (or `low` never set)
        *low = speed;
    return timer + h;
}

#endif
