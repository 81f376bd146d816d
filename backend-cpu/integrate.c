// integrate_velocities and integrate_positions: semi-implicit Euler per awake body (per body:
// core/kernels/integrate.h, which the device kernels run too; the sequential solver's gravity damping
// is the CPU's own).
#include "cpu_context.h"
#include "kernels/integrate.h"

// Wake rules 5 and 6 of Schornbaum 2010 §3.2 (sequential solver): a sleeping body wakes when it has fewer
// contacts "in the direction of gravity" than last step (what held it moved away), or none at all.
void rb_seq_wake_unsupported(rb_cpu_ctx *c)
{
    rb_scene *s = c->scene;
    int n = s->body_slots;
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int b = 0; b < n; ++b) {
        uint32_t f = s->body_flags[b];
        if ((f & RB_BODY_TYPE_MASK) != RB_BODY_DYNAMIC_T || (f & RB_BODY_AWAKE) || (f & RB_BODY_FROZEN) ||
            !(f & RB_BODY_ALIVE))
            continue;
        if (c->gravity_contacts[b] < c->gravity_contacts_prev[b] || c->gravity_contacts[b] == 0) {
            s->body_flags[b] = f | RB_BODY_AWAKE;
            c->body_prev_lin_vel[b].w = c->body_prev_ang_vel[b].w = 0.0f; // what held it moved: not at rest
        }
    }
}

// rb_freeze_body on the scene, back to the poses integrate_positions saved at the first substep.
static void freeze_body(rb_cpu_ctx *c, int b, int pose_saved)
{
    rb_scene *s = c->scene;
    rb_freeze_body(b, pose_saved, c->step_start_pos, c->step_start_rot, s->body_pos, s->body_rot, s->body_lin_vel,
                   s->body_ang_vel, s->body_flags);
}

rb_status rb_cpu_integrate_velocities(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    rb_scene *s = c->scene;
    int n = s->body_slots;
    float h = p->dt;
    int frozen = 0;
    int sequential = c->solver->rest_rules;
    if (sequential && rb_len_sq(p->gravity) > 0.0f)
        rb_seq_wake_unsupported(c);
    // velocity-dependent gravity damping (Schornbaum 2010 §3.8): bodies slower than the threshold get only
    // (1 - damping) of g, so resting piles stop accumulating gravity the solver must take out again.
    // Only bodies with a contact in the direction of gravity (this substep's, from build_batches): a
    // body released from rest in free air would otherwise lag its free fall (0.19 m/s at 180 Hz). And
    // only bodies at rest (rb_seq_update_rest: not accelerating): a box released on a slope steeper
    // than its friction angle, or a ball on any slope, is slow for its first tenth of a second, and
    // slid at 30% of its acceleration while damped (the damped normal impulse scales its friction too).
    float damp_thr2 = sequential ? p->seq.gravity_damping_threshold * p->seq.gravity_damping_threshold : -1.0f;
    float damped = 1.0f - p->seq.gravity_damping;
    int pose_saved = sequential || p->substep > 0;
#pragma omp parallel for schedule(static) num_threads(c->team) reduction(+ : frozen)
    for (int b = 0; b < n; ++b) {
        uint32_t f = s->body_flags[b];
        if (!rb_integrates_velocity(f))
            continue;
        rb_float3 v = rb_xyz(s->body_lin_vel[b]), w = rb_xyz(s->body_ang_vel[b]);
        rb_float3 g = p->gravity;
        if (sequential) {
            if (c->body_prev_lin_vel[b].w == 0.0f) { // no history: it starts here
                c->body_prev_lin_vel[b] = rb_f4_from3(v, 0.0f);
                c->body_prev_ang_vel[b] = rb_f4_from3(w, 0.0f);
                c->body_acc_lin[b] = c->body_acc_ang[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
            }
            float r = s->body_local_center[b].w; // |r_max|
            if (damp_thr2 > 0.0f && c->gravity_contacts[b] > 0 && rb_seq_at_rest(c, b) &&
                2.0f * (rb_len_sq(v) + rb_len_sq(w) * r * r) < damp_thr2)
                g = rb_scale(g, damped);
        }
        if (!rb_body_integrate_velocity(&v, &w, g, s->body_inv_inertia_diag[b].w, c->inv_inertia_world[b],
                                        s->body_inertia_diag[b], s->body_inertia_offdiag[b], s->body_rot[b],
                                        rb_xyz(s->body_force[b]), rb_xyz(s->body_torque[b]), s->body_params[b], h)) {
            // caught before the solver, so the non-finite state never reaches the neighbours
            freeze_body(c, b, pose_saved);
            ++frozen;
            continue;
        }
        s->body_lin_vel[b] = rb_f4_from3(v, 0.0f);
        s->body_ang_vel[b] = rb_f4_from3(w, 0.0f);
    }
    c->frozen_last_step += frozen;
    if (frozen)
        c->pose_epoch++; // a frozen body went back to the step's first pose
    return RB_OK;
}

rb_status rb_cpu_integrate_positions(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    rb_scene *s = c->scene;
    int n = s->body_slots;
    float h = p->dt;
    int frozen = 0;
    // the poses at the start of the step, for a body whose state goes non-finite (rb_freeze_body)
    int save = p->substep == 0;
    c->pose_epoch++;
    if (save && (!rb_cpu_reserve((void **)&c->step_start_pos, &c->step_start_pos_cap, n, sizeof *c->step_start_pos) ||
                 !rb_cpu_reserve((void **)&c->step_start_rot, &c->step_start_rot_cap, n, sizeof *c->step_start_rot)))
        return RB_ERR_OUT_OF_MEMORY;
#pragma omp parallel for schedule(static) num_threads(c->team) reduction(+ : frozen)
    for (int b = 0; b < n; ++b) {
        uint32_t f = s->body_flags[b];
        if (save) {
            c->step_start_pos[b] = s->body_pos[b];
            c->step_start_rot[b] = s->body_rot[b];
        }
        if (!rb_integrates_position(f))
            continue;
        rb_float3 v = rb_xyz(s->body_lin_vel[b]), w = rb_xyz(s->body_ang_vel[b]);
        rb_float3 new_pos = rb_xyz(s->body_pos[b]);
        rb_float4 new_q = s->body_rot[b];
        // positions move with the real velocity plus this substep's split-impulse correction (batched
        // and split; the sequential solver corrects positions itself, the soft one through velocities)
        rb_float3 pv = v, pw = w;
        if (c->solver->pseudo_velocities) {
            pv = rb_add(v, rb_xyz(c->pseudo_lin_vel[b]));
            pw = rb_add(w, rb_xyz(c->pseudo_ang_vel[b]));
        }
        if (!rb_body_integrate_position(&new_pos, &new_q, v, w, pv, pw, h)) {
            // back to the step's first pose, stop the body, and take it out of the simulation
            freeze_body(c, b, 1);
            ++frozen;
            continue;
        }
        s->body_pos[b] = rb_f4_from3(new_pos, 0.0f);
        s->body_rot[b] = new_q;
        if (c->solver->current_inertia) // reserved by this frame's update_bounds
            rb_world_inv_inertia_sym(s->body_inv_inertia_diag[b], s->body_inv_inertia_offdiag[b], new_q,
                                     &c->cur_inv_inertia_diag[b], &c->cur_inv_inertia_offdiag[b]);
    }
    c->frozen_last_step += frozen;
    return RB_OK;
}

// Bodies that a solve left with a non-finite velocity (an impulse that overflowed) where no
// integrate_positions follows to catch them: after the sequential solver's last solve (it moves
// positions first) and after the soft solver's finish (its last relax pass and restitution). Frozen now, back to the step's first
// pose (saved by this step's first integrate_positions, which ran before), so the step reports them
// (RB_ERR_NUMERIC) and no step returns RB_OK with a non-finite body. Reads only the flags and the
// velocities of the bodies that take impulses; changes nothing while every velocity is finite.
void rb_cpu_freeze_non_finite_velocities(rb_cpu_ctx *c)
{
    rb_scene *s = c->scene;
    int n = s->body_slots;
    int frozen = 0;
    // one thread: a few ns per body, once per step, cheaper than waking the team (on a busy machine a
    // parallel region can wait a scheduler slice for the second thread)
    for (int b = 0; b < n; ++b) {
        if (!rb_takes_impulses(s->body_flags, b) || !(s->body_flags[b] & RB_BODY_ALIVE))
            continue;
        if (rb_is_finite3(rb_xyz(s->body_lin_vel[b])) && rb_is_finite3(rb_xyz(s->body_ang_vel[b])))
            continue;
        freeze_body(c, b, 1);
        ++frozen;
    }
    c->frozen_last_step += frozen;
    if (frozen)
        c->pose_epoch++;
}
