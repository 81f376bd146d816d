// update_sleep for the sequential solver: per-body sleeping (seed 001 §3.2, Algorithm 5).
//
// Each awake body keeps a recency-weighted average of a bound on the speed of its surface,
// 2 (|v|^2 + |w|^2 |r_max|^2) >= (|v| + |w| |r_max|)^2; when it drops below sleep_threshold^2 the body
// sleeps on its own (no islands: bodies around it wake it through the wake rules). The average is
// clamped to sleep_motion_max^2 so that a body that stops suddenly can sleep soon after.
#include <string.h>

#include "cpu_context.h"

void rb_seq_update_sleep(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_scene *s = c->scene;
    int n = s->body_slots;
    float thr2 = p->seq.sleep_threshold * p->seq.sleep_threshold;
    float max2 = p->seq.sleep_motion_max * p->seq.sleep_motion_max;
    float bias = p->seq.sleep_bias;
    int awake = 0;
#pragma omp parallel for schedule(static) num_threads(c->team) reduction(+ : awake)
    for (int b = 0; b < n; ++b) {
        uint32_t f = s->body_flags[b];
        if (!(f & RB_BODY_ALIVE) || !(f & RB_BODY_AWAKE))
            continue;
        if ((f & RB_BODY_TYPE_MASK) != RB_BODY_DYNAMIC_T || !p->enable_sleep || !(f & RB_BODY_SLEEP_ENABLED)) {
            ++awake;
            continue;
        }
        rb_float3 v = rb_xyz(s->body_lin_vel[b]), w = rb_xyz(s->body_ang_vel[b]);
        float r = s->body_local_center[b].w;
        float motion2 = 2.0f * (rb_len_sq(v) + rb_len_sq(w) * r * r);
        float rwa = bias * s->body_params[b].w + (1.0f - bias) * motion2;
        if (rwa < thr2) {
            s->body_lin_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
            s->body_ang_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
            s->body_flags[b] = f & ~RB_BODY_AWAKE;
            // a body woken later falls asleep again at once only if it is still below the threshold
            rwa = thr2;
        } else {
            ++awake;
            if (rwa > max2)
                rwa = max2;
        }
        s->body_params[b].w = rwa;
    }
    c->awake_bodies = awake;
    // this step's supporting contacts are next step's reference for wake rule 5
    memcpy(c->gravity_contacts_prev, c->gravity_contacts, sizeof *c->gravity_contacts * (size_t)n);
}
