// update_sleep for the sequential solver: per-body sleeping (Schornbaum 2010 §3.2, Algorithm 5).
//
// Each awake body keeps a recency-weighted average of a bound on the speed of its surface,
// 2 (|v|^2 + |w|^2 |r_max|^2) >= (|v| + |w| |r_max|)^2; when it drops below sleep_threshold^2 the body
// sleeps on its own (no islands: bodies around it wake it through the wake rules). The average is
// clamped to sleep_motion_max^2 so that a body that stops suddenly can sleep soon after.
#include <string.h>

#include "cpu_context.h"

// Is a body at rest? pe asks only whether it is slow (sleeping, gravity damping), and a body that
// gravity accelerates slowly from rest - on a slope, a ball rolling - is slow for its first steps: it
// fell asleep in its first step, or accelerated at 30% of its acceleration under gravity damping. At
// rest means here that it does not accelerate: the recency-weighted mean A of its velocity change per
// substep is small, below `tol`, or small against the root mean square of that change (the same
// average of its square), where A is noise: a body at the iteration cap in a pile changes its velocity
// by millimetres per second every substep, in random directions, and their mean is a fraction of their
// size, (1 - bias) / sqrt(1 + bias) = 0.19 at bias 3/4 for white noise; a steady acceleration a gives
// A = a h and the ratio 1. Both in pe's bound on the surface speed, 2 (|dv|^2 + |dw|^2 r_max^2). A body
// without history (new, woken, moved by the application) is not at rest for its first `probation`
// substeps (the ratio is 0.76 after 3 for a steady acceleration).
void rb_seq_update_rest(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_scene *s = c->scene;
    int n = s->body_slots;
    float tol = p->seq.resolution_threshold, tol2 = tol * tol;
    const float bias = 0.75f, probation = 3.0f, kappa2 = 0.5f * 0.5f;
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int b = 0; b < n; ++b) {
        uint32_t f = s->body_flags[b];
        if (!(f & RB_BODY_ALIVE) || !(f & RB_BODY_AWAKE) || (f & RB_BODY_TYPE_MASK) != RB_BODY_DYNAMIC_T)
            continue;
        rb_float3 v = rb_xyz(s->body_lin_vel[b]), w = rb_xyz(s->body_ang_vel[b]);
        rb_float4 pv = c->body_prev_lin_vel[b], pw = c->body_prev_ang_vel[b];
        rb_float4 al = c->body_acc_lin[b], aa = c->body_acc_ang[b];
        float r = s->body_local_center[b].w, r2 = r * r;
        rb_float3 dv = rb_sub(v, rb_xyz(pv)), dw = rb_sub(w, rb_xyz(pw));
        rb_float3 mv = rb_add(rb_scale(rb_xyz(al), bias), rb_scale(dv, 1.0f - bias));
        rb_float3 mw = rb_add(rb_scale(rb_xyz(aa), bias), rb_scale(dw, 1.0f - bias));
        float ms = bias * al.w + (1.0f - bias) * 2.0f * (rb_len_sq(dv) + rb_len_sq(dw) * r2);
        float m2 = 2.0f * (rb_len_sq(mv) + rb_len_sq(mw) * r2);
        float count = rb_minf(pv.w + 1.0f, probation);
        int rest = count >= probation && (m2 <= tol2 || m2 <= kappa2 * ms);
        c->body_prev_lin_vel[b] = rb_f4_from3(v, count);
        c->body_prev_ang_vel[b] = rb_f4_from3(w, rest ? 1.0f : 0.0f);
        c->body_acc_lin[b] = rb_f4_from3(mv, ms);
        c->body_acc_ang[b] = rb_f4_from3(mw, 0.0f);
    }
}

void rb_seq_update_sleep(rb_cpu_ctx *c, const rb_step_params *p)
{
    rb_seq_update_rest(c, p);
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
        // slow (pe), and at rest: a body that gravity accelerates slowly from rest (on a slope) is slow
        // for its first steps, and the average, 0 for a new body, let it sleep in its first step
        if (rwa < thr2 && rb_seq_at_rest(c, b)) {
            s->body_lin_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
            s->body_ang_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
            s->body_flags[b] = f & ~RB_BODY_AWAKE;
            c->body_prev_lin_vel[b] = rb_f4_from3(rb_f3(0.0f, 0.0f, 0.0f), c->body_prev_lin_vel[b].w);
            c->body_prev_ang_vel[b] = rb_f4_from3(rb_f3(0.0f, 0.0f, 0.0f), c->body_prev_ang_vel[b].w);
            // a body woken later falls asleep again at once only if it is still below the threshold
            rwa = thr2;
        } else {
            ++awake;
            if (rwa > max2)
                rwa = max2;
        }
        s->body_params[b].w = rwa;
    }
    // pe's sleeping is per body; a joined body sleeps only with its partners (joint_solver.c)
    awake += rb_cpu_joints_wake_partners(c);
    c->awake_bodies = awake;
    // this step's supporting contacts are next step's reference for wake rule 5
    memcpy(c->gravity_contacts_prev, c->gravity_contacts, sizeof *c->gravity_contacts * (size_t)n);
}
