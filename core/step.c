// The step pipeline: the kernel set called in order on the active backend, each call timed.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "world.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

// Schornbaum 2010 §5.1's high-performance settings are expressed in |g| h so they scale with the substep h
// (at 240 Hz and g = 10 they are the thesis's values; docs/solver-sequential.md). Without gravity the
// scale is that of standard gravity.
static float gravity_h(rb_float3 gravity, float h)
{
    float g = rb_len(gravity);
    return (g < 1e-3f ? 9.81f : g) * h;
}

// One restitution threshold for every solver (rb_world_def): 0 is the solver's own choice, Box2D's
// 1 m/s for batched and split (their soft contacts leave small spurious speeds), pe's 1.1 |g| h for
// sequential (Schornbaum 2010 §6; resting contacts gain one substep of gravity, |g| h).
static float resolve_restitution_threshold(const rb_world_def *d, rb_float3 gravity, float h)
{
    if (d->restitution_threshold > 0.0f)
        return d->restitution_threshold;
    return d->solver == RB_SOLVER_SEQUENTIAL ? 1.1f * gravity_h(gravity, h) : 1.0f;
}

static rb_sequential_def resolve_sequential(const rb_sequential_def *in, rb_float3 gravity, float h)
{
    rb_sequential_def q = *in;
    float gh = gravity_h(gravity, h);
    if (q.penetration_threshold == 0.0f)
        q.penetration_threshold = 10.0f * gh * h;
    if (q.resolution_threshold == 0.0f)
        q.resolution_threshold = gh / 500.0f;
    if (q.sleep_threshold == 0.0f)
        q.sleep_threshold = gh / 5.0f;
    if (q.sleep_motion_max == 0.0f)
        q.sleep_motion_max = 4.0f * q.sleep_threshold;
    if (q.gravity_damping_threshold == 0.0f)
        q.gravity_damping_threshold = 2.0f * gh;
    return q;
}

static rb_step_params resolve_params(const rb_world *w)
{
    const rb_world_def *d = &w->settings;
    rb_step_params p;
    memset(&p, 0, sizeof p);
    int substeps = rb_effective_substeps(d);
    p.dt = d->time_step / (float)substeps;
    p.inv_dt = 1.0f / p.dt;
    p.gravity = rb_f3(d->gravity.x, d->gravity.y, d->gravity.z);
    p.iterations = d->iterations;
    p.position_iterations = d->position_iterations;
    p.solver = (int)d->solver; // resolved at creation / rb_world_set_solver
    p.enable_sleep = d->enable_sleep;
    p.position_correction = d->position_correction;
    p.max_push_velocity = d->max_push_velocity;
    p.contact_margin = d->contact_margin;
    p.linear_slop = d->linear_slop;
    p.restitution_threshold = resolve_restitution_threshold(d, p.gravity, p.dt);
    p.linear_sleep_tolerance = d->linear_sleep_tolerance;
    p.angular_sleep_tolerance = d->angular_sleep_tolerance;
    p.time_to_sleep = d->time_to_sleep;
    p.substeps = substeps;
    p.seq = resolve_sequential(&d->sequential, p.gravity, p.dt);
    // Box2D v3's choice: 30 Hz, but at most a quarter of the substep rate, where the soft constraint's
    // discrete form stays close to the spring it models
    p.contact_hertz = d->contact_hertz > 0.0f ? d->contact_hertz : rb_minf(30.0f, 0.25f * p.inv_dt);
    p.contact_damping_ratio = d->contact_damping_ratio;
    // Box2D v3's 60 Hz (twice its contacts' 30) at up to 4 substeps of 1/60 s; beyond, a quarter of the
    // substep rate, so that more substeps make stiffer joints (a swinging chain with a 20:1 weight
    // stretches 5.7% at 4 substeps, 0.2% at 16) at the same h ω as at 4; never above half the rate,
    // where a straight chain holding a weight shakes itself apart (docs/joints.md)
    p.joint_hertz = d->joint_hertz > 0.0f ? d->joint_hertz : rb_minf(0.5f * p.inv_dt, rb_maxf(60.0f, 0.25f * p.inv_dt));
    p.joint_damping_ratio = d->joint_damping_ratio;
    // an overlapping heap has pairs quadratic in its size; a resting one about 6 per shape
    int64_t budget = d->max_pairs > 0 ? d->max_pairs : 32 * (int64_t)w->shape_count + 65536;
    p.max_pairs = budget > INT32_MAX ? INT32_MAX : (int)budget;
    return p;
}

typedef rb_status (*kernel_fn)(rb_backend_ctx *, const rb_step_params *);

// Runs one kernel and adds its time to *phase_ms. A missing (NULL) kernel is a no-op.
static rb_status run_phase(rb_world *w, kernel_fn fn, const rb_step_params *p, float *phase_ms, const char *name)
{
    if (!fn)
        return RB_OK;
    double t0 = now_ms();
    rb_status s = fn(w->backend, p);
    *phase_ms += (float)(now_ms() - t0);
    if (s != RB_OK) {
        const char *why = w->ops->last_error ? w->ops->last_error(w->backend) : NULL;
        return rb_fail(w, s, "backend '%s' failed in %s: %s", w->ops->name, name, why && *why ? why : rb_status_string(s));
    }
    return RB_OK;
}

// One substep. Collision detection and batching run before the velocity update (docs/architecture.md lists
// integrate_velocities first): the result is the same, since detection reads only positions, and every
// kernel that may fail (they allocate) then runs before any body state changes, so a failed step
// leaves the world as it was. See docs/architecture.md.
// The sequential solver's order (Schornbaum 2010 Algorithm 6): positions move first, with the velocities of
// the end of the last step; then detection, batches, penetration correction, the velocity update (and
// its wake rules), contact resolution, sleeping. Detection, correction and resolution thus all see the
// same positions, and gravity's velocity is only a wish the solver can take back before anything moves
// (a box on the ground is never pushed into it). The state read between steps is the corrected one.
//
// Each detection looks ahead by the substep's motion (speculative contacts), and the resolution lets a
// gap close by at most its width in a substep, so the next substep's move cannot pass through what was
// found. Only the first move of a step can use velocities no contact has limited: those of a body the
// application created, set moving, moved or pushed, or of a shape it added, since the last step (the
// scene is dirty), and that of a bullet the last step's sweep put back against a surface (it keeps its
// velocity; core/kernels/time_of_impact.h). A body within one substep's travel of an obstacle then
// passed through it (a 1000 m/s ball 2.85 m from a 0.1 m wall ended at x = +497 m). For such a step a
// guard runs first: detection at the poses before the move and a resolution of the contacts that close
// faster than their gaps allow (RB_STAGE_GUARD: no warm start, no impulses stored;
// docs/solver-sequential.md, "Speculative contacts from the first substep"). A step of a scene without
// bullets that the application did not touch runs as before, bit for bit.
static bool has_awake_bullet(const rb_world *w)
{
    const rb_scene *sc = &w->scene;
    for (int b = 0; b < sc->body_slots; ++b)
        if ((sc->body_flags[b] & (RB_BODY_BULLET | RB_BODY_AWAKE)) == (RB_BODY_BULLET | RB_BODY_AWAKE))
            return true;
    return false;
}

static rb_status guard_first_move(rb_world *w, const rb_step_params *p, rb_profile *prof)
{
    const rb_backend_ops *o = w->ops;
    rb_step_params guard = *p;
    guard.stage = RB_STAGE_GUARD;
    rb_status s;
    if ((s = run_phase(w, o->update_bounds, &guard, &prof->bounds, "update_bounds")) != RB_OK ||
        (s = run_phase(w, o->find_pairs, &guard, &prof->broad, "find_pairs")) != RB_OK ||
        (s = run_phase(w, o->collide, &guard, &prof->narrow, "collide")) != RB_OK ||
        (s = run_phase(w, o->build_batches, &guard, &prof->batches, "build_batches")) != RB_OK ||
        (s = run_phase(w, o->solve_constraints, &guard, &prof->solve, "solve_constraints")) != RB_OK)
        return s;
    return RB_OK;
}

static rb_status substep_sequential(rb_world *w, const rb_step_params *p, rb_profile *prof)
{
    const rb_backend_ops *o = w->ops;
    rb_status s;
    if (p->substep == 0 && (w->scene.dirty || has_awake_bullet(w)) && (s = guard_first_move(w, p, prof)) != RB_OK)
        return s;
    if ((s = run_phase(w, o->integrate_positions, p, &prof->integrate, "integrate_positions")) != RB_OK ||
        (s = run_phase(w, o->update_bounds, p, &prof->bounds, "update_bounds")) != RB_OK ||
        (s = run_phase(w, o->find_pairs, p, &prof->broad, "find_pairs")) != RB_OK ||
        (s = run_phase(w, o->collide, p, &prof->narrow, "collide")) != RB_OK ||
        (s = run_phase(w, o->build_batches, p, &prof->batches, "build_batches")) != RB_OK ||
        (s = run_phase(w, o->correct_penetrations, p, &prof->correct, "correct_penetrations")) != RB_OK ||
        (s = run_phase(w, o->integrate_velocities, p, &prof->integrate, "integrate_velocities")) != RB_OK ||
        (s = run_phase(w, o->solve_constraints, p, &prof->solve, "solve_constraints")) != RB_OK ||
        (s = run_phase(w, o->update_sleep, p, &prof->sleep, "update_sleep")) != RB_OK)
        return s;
    return RB_OK;
}

// What a frame adds up over its substeps, for the world's counters.
typedef struct frame_totals {
    int frozen, resolutions, shock_batches;
} frame_totals;

// The soft step (Box2D v3): contacts found once per frame, then per substep the velocity update, one
// solve with the soft position bias, the position update and one relax pass without bias; restitution
// and the impulses' store close the frame. Sleeping is judged once per frame.
static rb_status step_soft(rb_world *w, rb_step_params *p, rb_profile *prof, frame_totals *t)
{
    const rb_backend_ops *o = w->ops;
    rb_status s;
    p->substep = 0;
    // detection looks ahead by the whole frame's motion (speculative contacts), not one substep's
    rb_step_params frame = *p;
    frame.dt = w->settings.time_step;
    frame.inv_dt = 1.0f / frame.dt;
    if ((s = run_phase(w, o->update_bounds, &frame, &prof->bounds, "update_bounds")) != RB_OK ||
        (s = run_phase(w, o->find_pairs, &frame, &prof->broad, "find_pairs")) != RB_OK ||
        (s = run_phase(w, o->collide, &frame, &prof->narrow, "collide")) != RB_OK ||
        (s = run_phase(w, o->build_batches, &frame, &prof->batches, "build_batches")) != RB_OK)
        return s;
    for (int i = 0; i < p->substeps; ++i) {
        p->substep = i;
        p->stage = RB_STAGE_SOLVE;
        if ((s = run_phase(w, o->integrate_velocities, p, &prof->integrate, "integrate_velocities")) != RB_OK ||
            (s = run_phase(w, o->solve_constraints, p, &prof->solve, "solve_constraints")) != RB_OK ||
            (s = run_phase(w, o->integrate_positions, p, &prof->integrate, "integrate_positions")) != RB_OK)
            return s;
        p->stage = RB_STAGE_RELAX;
        if ((s = run_phase(w, o->solve_constraints, p, &prof->solve, "solve_constraints")) != RB_OK)
            return s;
        t->frozen += o->frozen_in_last_step ? o->frozen_in_last_step(w->backend) : 0;
    }
    p->stage = RB_STAGE_FINISH;
    if ((s = run_phase(w, o->solve_constraints, p, &prof->solve, "solve_constraints")) != RB_OK)
        return s;
    t->frozen += o->frozen_in_last_step ? o->frozen_in_last_step(w->backend) : 0; // what the finish froze
    // the sleep timers count whole frames
    return run_phase(w, o->update_sleep, &frame, &prof->sleep, "update_sleep");
}

static rb_status substep(rb_world *w, const rb_step_params *p, rb_profile *prof)
{
    const rb_backend_ops *o = w->ops;
    rb_status s;
    if ((s = run_phase(w, o->update_bounds, p, &prof->bounds, "update_bounds")) != RB_OK ||
        (s = run_phase(w, o->find_pairs, p, &prof->broad, "find_pairs")) != RB_OK ||
        (s = run_phase(w, o->collide, p, &prof->narrow, "collide")) != RB_OK ||
        (s = run_phase(w, o->build_batches, p, &prof->batches, "build_batches")) != RB_OK ||
        (s = run_phase(w, o->integrate_velocities, p, &prof->integrate, "integrate_velocities")) != RB_OK ||
        (s = run_phase(w, o->correct_penetrations, p, &prof->correct, "correct_penetrations")) != RB_OK ||
        (s = run_phase(w, o->solve_constraints, p, &prof->solve, "solve_constraints")) != RB_OK ||
        (s = run_phase(w, o->integrate_positions, p, &prof->integrate, "integrate_positions")) != RB_OK ||
        (s = run_phase(w, o->update_sleep, p, &prof->sleep, "update_sleep")) != RB_OK)
        return s;
    return RB_OK;
}

// A frame of whole substeps, each one run by `one`, with the counters summed over them.
static rb_status substeps(rb_world *w, rb_step_params *p, rb_profile *prof, frame_totals *t,
                          rb_status (*one)(rb_world *, const rb_step_params *, rb_profile *))
{
    for (int i = 0; i < p->substeps; ++i) {
        p->substep = i;
        rb_status s = one(w, p, prof);
        if (s != RB_OK)
            return s;
        t->frozen += w->ops->frozen_in_last_step ? w->ops->frozen_in_last_step(w->backend) : 0;
        if (w->ops->get_stats) { // per substep: sum over the step
            rb_backend_stats sub;
            memset(&sub, 0, sizeof sub);
            w->ops->get_stats(w->backend, &sub);
            t->resolutions += sub.resolutions;
            t->shock_batches += sub.shock_batches;
        }
    }
    return RB_OK;
}

static rb_status frame_substeps(rb_world *w, rb_step_params *p, rb_profile *prof, frame_totals *t)
{
    return substeps(w, p, prof, t, substep);
}

static rb_status frame_sequential(rb_world *w, rb_step_params *p, rb_profile *prof, frame_totals *t)
{
    return substeps(w, p, prof, t, substep_sequential);
}

// The core's table of solvers: how each runs a frame (the backends keep their own tables of what each
// kernel does for it).
typedef rb_status (*frame_fn)(rb_world *w, rb_step_params *p, rb_profile *prof, frame_totals *t);
static const frame_fn frames[] = {
    [RB_SOLVER_BATCHED] = frame_substeps,
    [RB_SOLVER_SEQUENTIAL] = frame_sequential,
    [RB_SOLVER_SPLIT] = frame_substeps,
    [RB_SOLVER_SOFT] = step_soft,
};

// A failed step leaves the world as it was. Every kernel that may fail (they allocate) runs before
// the first body moves in a frame of the soft step, and of the batched and split steps with one
// substep; the sequential step moves positions first, and a later substep may fail after an earlier
// one moved the bodies. For those, the CPU (whose state is this host scene) keeps the bodies' state of
// the step's start, a few float4 per body, and puts it back after a failure. GPU backends keep their
// state on the device: there a failure in a later substep leaves the bodies as that substep found them
// (docs/limits.md).
static bool step_backup_needed(const rb_world *w, const rb_step_params *p)
{
    return w->ops->download == NULL && w->scene.body_slots > 0 &&
           (p->solver == RB_SOLVER_SEQUENTIAL || (p->solver != RB_SOLVER_SOFT && p->substeps > 1));
}

#define BACKUP_ARRAYS(X) X(body_pos) X(body_rot) X(body_lin_vel) X(body_ang_vel) X(body_params)

static bool backup_bodies(rb_world *w)
{
    rb_scene *sc = &w->scene;
    size_t n = (size_t)sc->body_slots;
    size_t need = 5 * n * sizeof(rb_float4) + n * sizeof(uint32_t);
    if (need > w->step_backup_size) {
        void *p = realloc(w->step_backup, need);
        if (!p)
            return false;
        w->step_backup = p;
        w->step_backup_size = need;
    }
    rb_float4 *at = w->step_backup;
#define SAVE(a) memcpy(at, sc->a, n * sizeof(rb_float4)), at += n;
    BACKUP_ARRAYS(SAVE)
#undef SAVE
    memcpy(at, sc->body_flags, n * sizeof(uint32_t));
    return true;
}

static void restore_bodies(rb_world *w)
{
    rb_scene *sc = &w->scene;
    size_t n = (size_t)sc->body_slots;
    const rb_float4 *at = w->step_backup;
#define LOAD(a) memcpy(sc->a, at, n * sizeof(rb_float4)), at += n;
    BACKUP_ARRAYS(LOAD)
#undef LOAD
    memcpy(sc->body_flags, at, n * sizeof(uint32_t));
    for (int b = 0; b < sc->body_slots; ++b)
        rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
}

rb_status rb_world_step(rb_world_id id)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    rb_flush_body_bound(w); // the one body whose bounding radius shapes just added left pending (core/mass.c)
    rb_profile prof;
    memset(&prof, 0, sizeof prof);
    double t_start = now_ms();

    // scheduled gravity changes that are due (a scene file's events); they wake every body, which
    // would otherwise sleep on under the new gravity
    int due = 0;
    while (due < w->event_count && w->events[due].time <= w->time + 0.5 * w->settings.time_step)
        ++due;
    if (due > 0) {
        if ((s = rb_sync_from_backend(w)) != RB_OK || (s = rb_world_set_gravity(id, w->events[due - 1].gravity)) != RB_OK)
            return s;
        w->event_count -= due;
        memmove(w->events, w->events + due, sizeof *w->events * (size_t)w->event_count);
        for (int b = 0; b < w->scene.body_slots; ++b)
            if (w->scene.body_flags[b] & RB_BODY_ALIVE)
                rb_wake_body(w, b);
    }

    if (w->ops->begin_step)
        w->ops->begin_step(w->backend);
    if (w->scene.dirty && w->ops->upload) {
        double t0 = now_ms();
        s = w->ops->upload(w->backend);
        prof.transfer += (float)(now_ms() - t0);
        if (s != RB_OK) {
            const char *why = w->ops->last_error ? w->ops->last_error(w->backend) : NULL;
            return rb_fail(w, s, "backend '%s' could not upload the scene: %s", w->ops->name,
                           why && *why ? why : rb_status_string(s));
        }
    }

    rb_step_params p = resolve_params(w);
    frame_totals t = {0, 0, 0};
    bool backup = step_backup_needed(w, &p);
    if (backup && !backup_bodies(w))
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory keeping %d bodies' state for the step",
                       w->scene.body_slots);
    // then the bullets' sweeps from their poses at the start of the step, whatever the solver
    // (continuous collision, timed as narrow phase; docs/solver.md)
    if ((s = frames[p.solver](w, &p, &prof, &t)) != RB_OK ||
        (s = run_phase(w, w->ops->solve_continuous, &p, &prof.narrow, "solve_continuous")) != RB_OK) {
        if (backup)
            restore_bodies(w);
        // the bodies are as before the step, but a backend may have rewritten part of its pairs and
        // contacts: none are reported until a step completes (the counters keep the last completed one's)
        w->contacts_stale = true;
        return s;
    }
    int frozen = t.frozen, resolutions = t.resolutions, shock_batches = t.shock_batches;
    if (w->ops->end_step)
        w->ops->end_step(w->backend);
    w->time += w->settings.time_step;
    rb_scene_clear_dirty(&w->scene);
    w->host_stale = w->ops->download != NULL;
    w->contacts_stale = false;

    // forces act for one step; the backend has consumed them (a world that never had a body has no arrays)
    if (w->scene.body_slots > 0) {
        memset(w->scene.body_force, 0, sizeof *w->scene.body_force * (size_t)w->scene.body_slots);
        memset(w->scene.body_torque, 0, sizeof *w->scene.body_torque * (size_t)w->scene.body_slots);
    }

    rb_backend_stats st;
    memset(&st, 0, sizeof st);
    if (w->ops->get_stats)
        w->ops->get_stats(w->backend, &st);
    w->counters.pairs = st.pairs;
    w->counters.manifolds = st.manifolds;
    w->counters.contacts = st.contacts;
    w->counters.colors = st.colors;
    w->counters.resolutions = resolutions;
    w->counters.shock_batches = shock_batches;
    w->counters.unresolved = st.unresolved;
    w->counters.uncorrected = st.uncorrected;
    prof.step = (float)(now_ms() - t_start);
    w->profile = prof;
    if (frozen > 0)
        return rb_fail(w, RB_ERR_NUMERIC,
                       "%d body state(s) became non-finite, or moved beyond %g m from the origin on an axis, in this "
                       "step; they were restored to their last finite state and frozen (rb_counters.frozen_bodies)",
                       frozen, RB_COORDINATE_LIMIT);
    return RB_OK;
}
