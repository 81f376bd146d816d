// The rest timer of island sleeping (soft, batched and split solvers), per body: how long it has been
// slow. An island falls asleep when its smallest timer reaches time_to_sleep.
#ifndef RB_KERNELS_REST_TIMER_H
#define RB_KERNELS_REST_TIMER_H

#include "vec_math.h"

// The timer after a step of h: grown while the body is slow, else zero. Slow: the speed of its surface
// |v| + r |w| (r its bounding radius about the centre of mass; Box2D's test) within lin_tol, or |v| and
// |w| each within their own tolerance. The first lets a small ball that rocks by a few hundredths of a
// radian per second rest, which the angular tolerance alone did not.
RB_FN float rb_rest_timer(float timer, int sleep_enabled, rb_float3 v, rb_float3 w, float radius, float lin_tol,
                          float ang_tol, float h)
{
    float sv = rb_sqrtf(rb_len_sq(v)), sw = rb_sqrtf(rb_len_sq(w));
    int slow = sv + radius * sw <= lin_tol || (sv <= lin_tol && sw <= ang_tol);
    return sleep_enabled && slow ? timer + h : 0.0f;
}

#endif
