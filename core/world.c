// Worlds: the world table, creation and destruction, settings, info.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_registry.h"
#include "rb_config.h"
#include "world.h"

_Static_assert(RB_GEOM_SPHERE == RB_SHAPE_SPHERE && RB_GEOM_CAPSULE == RB_SHAPE_CAPSULE && RB_GEOM_CONVEX == RB_SHAPE_CONVEX &&
                   RB_GEOM_BOX == RB_SHAPE_BOX && RB_GEOM_PLANE == RB_SHAPE_PLANE,
               "kernel shape numbering must match rb_shape_type");
_Static_assert(RB_BODY_STATIC_T == RB_BODY_STATIC && RB_BODY_KINEMATIC_T == RB_BODY_KINEMATIC &&
                   RB_BODY_DYNAMIC_T == RB_BODY_DYNAMIC,
               "body type bits must match rb_body_type");

static rb_world g_worlds[RB_MAX_WORLDS];
static pthread_mutex_t g_worlds_lock = PTHREAD_MUTEX_INITIALIZER;

const char *rb_version_string(void) { return RB_VERSION; }

rb_quat rb_quat_from_axis_angle(rb_vec3 axis, float angle)
{
    rb_float4 q = rb_quat_axis_angle(rb_f3(axis.x, axis.y, axis.z), angle);
    return (rb_quat){q.x, q.y, q.z, q.w};
}

rb_world_def rb_default_world_def(void)
{
    rb_world_def d;
    memset(&d, 0, sizeof d);
    d.gravity = (rb_vec3){0.0f, -9.81f, 0.0f};
    d.time_step = 1.0f / 60.0f;
    d.substeps = 0;
    d.iterations = 10;
    d.position_iterations = 4;
    d.solver = RB_SOLVER_DEFAULT;
    d.sequential.remaining_penetration = 0.5f;
    d.sequential.sleep_bias = 0.5f;
    d.sequential.gravity_damping = 0.7f;
    d.sequential.max_iterations = 2.0f;
    d.sequential.shock_iterations = 6.0f;
    d.sequential.shock_propagation = true;
    d.sequential.settle_iterations = 1.0f;
    d.sequential.heap_threshold = 64;
    d.sequential.large_batch = 8;
    d.sequential.split_contacts = 0; // parts cost more quality than they save time (docs/solver-sequential.md)
    d.sequential.warm_start = true;
    d.backend = RB_BACKEND_AUTO;
    d.threads = 0;
    d.enable_sleep = true;
    d.position_correction = 0.2f;
    d.max_push_velocity = 3.0f;
    d.contact_margin = 0.02f;
    d.linear_slop = 0.0005f;
    d.restitution_threshold = 0.0f; // the solver's choice (core/step.c)
    d.linear_sleep_tolerance = 0.05f;
    d.angular_sleep_tolerance = 2.0f * RB_PI / 180.0f;
    d.time_to_sleep = 0.5f;
    d.contact_hertz = 0.0f; // the solver's choice (core/step.c)
    d.contact_damping_ratio = 10.0f;
    d.joint_hertz = 0.0f; // the solver's choice (core/step.c)
    d.joint_damping_ratio = 2.0f;
    d.internal_value = RB_DEF_COOKIE;
    return d;
}

rb_world *rb_get_world(rb_world_id id, rb_status *status)
{
    if (id.index1 == 0 || id.index1 > RB_MAX_WORLDS) {
        *status = rb_fail_global(RB_ERR_STALE_ID, "world id is null or out of range (index %u)", id.index1);
        return NULL;
    }
    rb_world *w = &g_worlds[id.index1 - 1];
    if (!w->in_use || w->generation != id.generation) {
        *status = rb_fail_global(RB_ERR_STALE_ID, "world id %u (generation %u) refers to a destroyed world",
                                 id.index1, id.generation);
        return NULL;
    }
    return w;
}

bool rb_world_slot_live(int index, uint16_t *generation)
{
    if (index < 0 || index >= RB_MAX_WORLDS || !g_worlds[index].in_use)
        return false;
    *generation = g_worlds[index].generation;
    return true;
}

rb_world *rb_world_of_object(int32_t index1, uint16_t world0, const char *kind, rb_status *status)
{
    rb_world_id wid = {(uint16_t)(world0 + 1), 0};
    if (index1 <= 0 || world0 >= RB_MAX_WORLDS) {
        *status = rb_fail_global(RB_ERR_STALE_ID, "%s id is null or malformed (index %d)", kind, index1);
        return NULL;
    }
    if (!rb_world_slot_live(world0, &wid.generation)) {
        *status = rb_fail_global(RB_ERR_STALE_ID, "%s id %d belongs to a destroyed world", kind, index1);
        return NULL;
    }
    return rb_get_world(wid, status);
}

rb_world *rb_world_of_object_quiet(int32_t index1, uint16_t world0)
{
    uint16_t gen;
    if (index1 <= 0 || world0 >= RB_MAX_WORLDS || !rb_world_slot_live(world0, &gen))
        return NULL;
    rb_status s;
    return rb_get_world((rb_world_id){(uint16_t)(world0 + 1), gen}, &s);
}

bool rb_world_is_valid(rb_world_id id)
{
    if (id.index1 == 0 || id.index1 > RB_MAX_WORLDS)
        return false;
    const rb_world *w = &g_worlds[id.index1 - 1];
    return w->in_use && w->generation == id.generation;
}

static rb_status check_positive(const char *name, float v)
{
    if (!(v > 0.0f) || !isfinite(v))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "%s must be finite and > 0, got %g", name, v);
    return RB_OK;
}

static rb_status check_non_negative(const char *name, float v)
{
    if (!(v >= 0.0f) || !isfinite(v))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "%s must be finite and >= 0, got %g", name, v);
    return RB_OK;
}

static rb_status check_auto(const char *name, float v)
{
    if (!(v >= 0.0f) || !isfinite(v))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "sequential.%s must be finite and >= 0 (0: automatic), got %g",
                              name, v);
    return RB_OK;
}

static rb_status validate_sequential(const rb_sequential_def *q)
{
    rb_status s;
    if ((s = check_auto("penetration_threshold", q->penetration_threshold)) != RB_OK ||
        (s = check_auto("sleep_motion_max", q->sleep_motion_max)) != RB_OK ||
        (s = check_auto("resolution_threshold", q->resolution_threshold)) != RB_OK ||
        (s = check_auto("sleep_threshold", q->sleep_threshold)) != RB_OK ||
        (s = check_auto("gravity_damping_threshold", q->gravity_damping_threshold)) != RB_OK)
        return s;
    if (!(q->remaining_penetration > 0.0f && q->remaining_penetration < 1.0f))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "sequential.remaining_penetration must be in (0, 1), got %g",
                              q->remaining_penetration);
    if (!(q->sleep_bias >= 0.0f && q->sleep_bias < 1.0f))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "sequential.sleep_bias must be in [0, 1), got %g", q->sleep_bias);
    if (!(q->gravity_damping >= 0.0f && q->gravity_damping <= 1.0f))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "sequential.gravity_damping must be in [0, 1], got %g",
                              q->gravity_damping);
    if (!(q->settle_iterations >= 0.0f && q->settle_iterations <= 1e6f))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "sequential.settle_iterations must be in [0, 1e6], got %g",
                              q->settle_iterations);
    if (!(q->max_iterations > 0.0f && q->max_iterations <= 1e6f) || !(q->shock_iterations > 0.0f && q->shock_iterations <= 1e6f))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT,
                              "sequential.max_iterations and shock_iterations must be in (0, 1e6], got %g and %g",
                              q->max_iterations, q->shock_iterations);
    if (q->heap_threshold < 0 || q->large_batch < 0 || q->split_contacts < 0)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT,
                              "sequential.heap_threshold, large_batch and split_contacts must be >= 0");
    return RB_OK;
}

// Every rule a world definition must meet; shared by creation and the setters.
static rb_status validate_def(const rb_world_def *d)
{
    rb_status s;
    if (d->internal_value != RB_DEF_COOKIE)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT,
                              "world def was not initialised with rb_default_world_def()");
    if (!rb_finite_vec3(d->gravity))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "gravity must be finite, got (%g, %g, %g)",
                              d->gravity.x, d->gravity.y, d->gravity.z);
    if ((s = check_positive("time_step", d->time_step)) != RB_OK)
        return s;
    if (d->substeps < 0 || d->substeps > 64)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "substeps must be in [0, 64] (0: the solver's choice), got %d",
                              d->substeps);
    if (d->iterations < 1 || d->iterations > 1000)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "iterations must be in [1, 1000], got %d", d->iterations);
    if (d->position_iterations < 0 || d->position_iterations > 1000)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "position_iterations must be in [0, 1000], got %d",
                              d->position_iterations);
    if ((int)d->solver < RB_SOLVER_DEFAULT || (int)d->solver > RB_SOLVER_SOFT)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "unknown solver %d", (int)d->solver);
    if ((s = validate_sequential(&d->sequential)) != RB_OK)
        return s;
    if (d->sequential.sleep_threshold > 0.0f) {
        // pe's rule (Schornbaum 2010 §5.1): a body resting on something gains |g| h per substep; a threshold at
        // or above that lets a body that gravity is accelerating fall asleep in mid-air. h is the
        // sequential solver's substep (gravity 0 is scaled as standard gravity, as core/step.c does).
        int n = d->substeps > 0 ? d->substeps : 3;
        float g = sqrtf(d->gravity.x * d->gravity.x + d->gravity.y * d->gravity.y + d->gravity.z * d->gravity.z);
        float gh = (g < 1e-3f ? 9.81f : g) * d->time_step / (float)n;
        if (!(d->sequential.sleep_threshold < gh))
            return rb_fail_global(RB_ERR_INVALID_ARGUMENT,
                                  "sequential.sleep_threshold must be < |g| h = %g m/s (gravity %g m/s², substep %g s), "
                                  "got %g (0: automatic, |g| h / 5)",
                                  gh, g, d->time_step / (float)n, d->sequential.sleep_threshold);
    }
    if ((int)d->backend < RB_BACKEND_AUTO || (int)d->backend > RB_BACKEND_CUDA)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "unknown backend %d", (int)d->backend);
    if (d->threads < 0 || d->threads > 1024)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "threads must be in [0, 1024], got %d", d->threads);
    if (!(d->position_correction >= 0.0f && d->position_correction <= 1.0f))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "position_correction must be in [0, 1], got %g",
                              d->position_correction);
    if ((s = check_non_negative("contact_hertz", d->contact_hertz)) != RB_OK ||
        (s = check_non_negative("contact_damping_ratio", d->contact_damping_ratio)) != RB_OK ||
        (s = check_non_negative("joint_hertz", d->joint_hertz)) != RB_OK ||
        (s = check_non_negative("joint_damping_ratio", d->joint_damping_ratio)) != RB_OK)
        return s;
    if ((s = check_non_negative("max_push_velocity", d->max_push_velocity)) != RB_OK ||
        (s = check_non_negative("contact_margin", d->contact_margin)) != RB_OK ||
        (s = check_non_negative("linear_slop", d->linear_slop)) != RB_OK ||
        (s = check_non_negative("restitution_threshold", d->restitution_threshold)) != RB_OK ||
        (s = check_non_negative("linear_sleep_tolerance", d->linear_sleep_tolerance)) != RB_OK ||
        (s = check_non_negative("angular_sleep_tolerance", d->angular_sleep_tolerance)) != RB_OK ||
        (s = check_non_negative("time_to_sleep", d->time_to_sleep)) != RB_OK)
        return s;
    if (d->max_pairs < 0)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "max_pairs must be >= 0 (0: 32 per shape + 65,536), got %d",
                              d->max_pairs);
    if (d->body_capacity < 0 || d->body_capacity > RB_MAX_BODIES || d->shape_capacity < 0 ||
        d->shape_capacity > RB_MAX_SHAPES)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "capacity hints must be in [0, %d], got %d bodies, %d shapes",
                              RB_MAX_BODIES, d->body_capacity, d->shape_capacity);
    return RB_OK;
}

static void free_world_memory(rb_world *w)
{
    rb_scene_free(&w->scene);
    free(w->step_backup);
    rb_free_joints(w);
    rb_free_hulls(w);
    rb_id_pool_free(&w->body_ids);
    free(w->body_user_data);
    free(w->body_first_shape);
    free(w->body_shape_count);
    free(w->body_target_mass);
    free(w->body_mass_data);
    rb_id_pool_free(&w->shape_ids);
    free(w->shape_user_data);
    free(w->shape_next);
    free(w->events);
}

// One past the newest body or shape generation this world issued, counted from its base (generations
// wrap at 65,536, as within a world): where the next world in the slot starts its ids.
static uint16_t next_id_generation_base(const rb_world *w)
{
    uint16_t base = w->id_generation_base;
    uint16_t spans[] = {rb_id_pool_span(&w->body_ids, base), rb_id_pool_span(&w->shape_ids, base),
                        rb_id_pool_span(&w->joint_ids, base), rb_hull_generation_span(w, base)};
    uint16_t span = 0;
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; ++i)
        if (spans[i] > span)
            span = spans[i];
    return (uint16_t)(base + span + 1u);
}

// The CPU runs the soft step (docs/solver.md); the GPU backends implement the batched solver.
static rb_solver default_solver(rb_backend kind)
{
    return kind == RB_BACKEND_CPU ? RB_SOLVER_SOFT : RB_SOLVER_BATCHED;
}

rb_status rb_create_world(const rb_world_def *def, rb_world_id *out)
{
    if (!def || !out)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "rb_create_world: def and out must not be NULL");
    rb_status s = validate_def(def);
    if (s != RB_OK)
        return s;

    int threads = 1;
    char msg[RB_ERROR_SIZE];
    if (rb_resolve_threads(def->threads, &threads, msg, sizeof msg) != RB_OK)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "%s", msg);

    pthread_mutex_lock(&g_worlds_lock);
    int slot = -1;
    for (int i = 0; i < RB_MAX_WORLDS; ++i) {
        if (!g_worlds[i].in_use) {
            slot = i;
            break;
        }
    }
    if (slot < 0) {
        pthread_mutex_unlock(&g_worlds_lock);
        return rb_fail_global(RB_ERR_CAPACITY, "too many worlds: at most %d exist at once", RB_MAX_WORLDS);
    }
    rb_world *w = &g_worlds[slot];
    uint16_t generation = (uint16_t)(w->generation + 1), id_base = w->id_generation_base;
    memset(w, 0, sizeof *w);
    w->in_use = true; // reserve the slot; released below on failure
    w->created_seq = rb_error_seq();
    w->generation = generation;
    w->id_generation_base = id_base;
    w->index = slot;
    pthread_mutex_unlock(&g_worlds_lock);

    w->settings = *def;
    w->threads = threads;

    rb_backend_choice choice;
    s = rb_registry_open(def->backend, threads, &w->scene, &choice, msg, sizeof msg);
    if (s != RB_OK) {
        pthread_mutex_lock(&g_worlds_lock);
        w->in_use = false;
        pthread_mutex_unlock(&g_worlds_lock);
        return rb_fail_global(s, "%s", msg);
    }
    w->ops = choice.ops;
    w->settings.backend = choice.kind;
    w->backend = choice.ctx;
    w->module_handle = choice.module;
    snprintf(w->backend_selection, sizeof w->backend_selection, "%s", choice.selection);
    snprintf(w->device_name, sizeof w->device_name, "%s", w->ops->device_name(w->backend));
    if (w->settings.solver == RB_SOLVER_DEFAULT)
        w->settings.solver = default_solver(choice.kind);
    if (!w->ops->supports_solver(w->backend, (int)w->settings.solver)) {
        rb_solver asked = w->settings.solver;
        w->ops->destroy(w->backend);
        rb_registry_close(w->module_handle);
        pthread_mutex_lock(&g_worlds_lock);
        w->in_use = false;
        pthread_mutex_unlock(&g_worlds_lock);
        return rb_fail_global(RB_ERR_UNSUPPORTED, "backend '%s' does not implement the '%s' solver", choice.ops->name,
                              rb_solver_name(asked));
    }

    if (def->body_capacity > 0 || def->shape_capacity > 0) {
        // hints only: a failure here is not an error, the arrays grow later
        (void)rb_scene_reserve_bodies(&w->scene, def->body_capacity);
        (void)rb_scene_reserve_shapes(&w->scene, def->shape_capacity);
    }
    *out = (rb_world_id){(uint16_t)(slot + 1), generation};
    return RB_OK;
}

rb_status rb_destroy_world(rb_world_id id)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    w->ops->destroy(w->backend);
    rb_registry_close(w->module_handle);
    uint16_t id_base = next_id_generation_base(w);
    free_world_memory(w);
    pthread_mutex_lock(&g_worlds_lock);
    uint16_t generation = w->generation;
    memset(w, 0, sizeof *w);
    w->generation = generation; // the next world in this slot gets generation + 1
    w->id_generation_base = id_base;
    pthread_mutex_unlock(&g_worlds_lock);
    return RB_OK;
}

rb_status rb_world_get_def(rb_world_id id, rb_world_def *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_def: out must not be NULL");
    *out = w->settings;
    out->substeps = rb_effective_substeps(&w->settings);
    return RB_OK;
}

int rb_effective_substeps(const rb_world_def *d)
{
    if (d->substeps > 0)
        return d->substeps;
    // at least 180 steps per second for the sequential solver (Schornbaum 2010 §5.6); see docs/solver-sequential.md
    // soft: Box2D v3's 4 substeps of one solve and one relax pass (docs/solver.md)
    return d->solver == RB_SOLVER_SEQUENTIAL ? 3 : d->solver == RB_SOLVER_SOFT ? 4 : 1;
}

rb_status rb_world_get_info(rb_world_id id, rb_world_info *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_info: out must not be NULL");
    out->backend = w->ops->name;
    out->device = w->device_name;
    out->solver = rb_solver_name(w->settings.solver);
    out->selection = w->backend_selection;
    out->threads = w->threads;
    return RB_OK;
}

const char *rb_world_backend_name(rb_world_id id)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    return w ? w->ops->name : "";
}

// The setters validate a copy of the settings with the new value, so every rule lives in validate_def.
static rb_status apply_settings(rb_world *w, const rb_world_def *candidate)
{
    rb_status s = validate_def(candidate);
    if (s != RB_OK) {
        char msg[RB_ERROR_SIZE]; // copy: rb_fail writes the thread's buffer it would read from
        rb_format(msg, sizeof msg, "%s", rb_last_error(rb_null_world_id));
        return rb_fail(w, s, "%s", msg);
    }
    w->settings = *candidate;
    return RB_OK;
}

rb_status rb_world_set_gravity(rb_world_id id, rb_vec3 gravity)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    rb_world_def d = w->settings;
    d.gravity = gravity;
    return apply_settings(w, &d);
}

rb_status rb_world_get_gravity(rb_world_id id, rb_vec3 *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_gravity: out must not be NULL");
    *out = w->settings.gravity;
    return RB_OK;
}

rb_status rb_world_set_time_step(rb_world_id id, float time_step, int substeps)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    rb_world_def d = w->settings;
    d.time_step = time_step;
    d.substeps = substeps;
    return apply_settings(w, &d);
}

rb_status rb_world_get_time_step(rb_world_id id, float *time_step, int *substeps)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    // either output may be left out, as in rb_world_get_velocities, but a call asking for nothing is a mistake
    if (!time_step && !substeps)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_time_step: both outputs are NULL");
    if (time_step)
        *time_step = w->settings.time_step;
    if (substeps)
        *substeps = rb_effective_substeps(&w->settings);
    return RB_OK;
}

rb_status rb_world_set_iterations(rb_world_id id, int iterations, int position_iterations)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    rb_world_def d = w->settings;
    d.iterations = iterations;
    d.position_iterations = position_iterations;
    return apply_settings(w, &d);
}

rb_status rb_world_set_solver(rb_world_id id, rb_solver solver)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    rb_world_def d = w->settings;
    d.solver = solver == RB_SOLVER_DEFAULT ? default_solver(w->settings.backend) : solver;
    if ((int)solver < RB_SOLVER_DEFAULT || (int)solver > RB_SOLVER_SOFT)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "unknown solver %d", (int)solver);
    if (!w->ops->supports_solver(w->backend, (int)d.solver))
        return rb_fail(w, RB_ERR_UNSUPPORTED, "backend '%s' does not implement the '%s' solver", w->ops->name,
                       rb_solver_name(d.solver));
    return apply_settings(w, &d);
}

rb_status rb_world_set_sequential(rb_world_id id, const rb_sequential_def *def)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!def)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_set_sequential: def must not be NULL");
    rb_world_def d = w->settings;
    d.sequential = *def;
    return apply_settings(w, &d);
}

rb_status rb_world_set_restitution_threshold(rb_world_id id, float threshold)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    rb_world_def d = w->settings;
    d.restitution_threshold = threshold;
    return apply_settings(w, &d);
}

rb_status rb_world_enable_sleep(rb_world_id id, bool enable)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    w->settings.enable_sleep = enable;
    if (!enable) {
        // everything wakes: sleeping is a performance feature, switching it off must not strand bodies
        rb_status ss = rb_sync_from_backend(w);
        if (ss != RB_OK)
            return ss;
        rb_scene *sc = &w->scene;
        for (int b = 0; b < sc->body_slots; ++b) {
            uint32_t f = sc->body_flags[b];
            if ((f & RB_BODY_ALIVE) && (f & RB_BODY_TYPE_MASK) != RB_BODY_STATIC_T && !(f & RB_BODY_AWAKE)) {
                sc->body_flags[b] |= RB_BODY_AWAKE;
                sc->body_params[b].w = 0.0f;
                sc->body_sleep_group[b] = -1;
                rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
            }
        }
    }
    return RB_OK;
}

rb_status rb_world_get_profile(rb_world_id id, rb_profile *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_profile: out must not be NULL");
    *out = w->profile;
    return RB_OK;
}

rb_status rb_world_get_counters(rb_world_id id, rb_counters *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_counters: out must not be NULL");
    w->counters.bodies = w->body_count;
    w->counters.shapes = w->shape_count;
    w->counters.body_slots = w->scene.body_slots;
    if ((s = rb_count_imprecise_bodies(w, &w->counters.imprecise_bodies)) != RB_OK)
        return s;
    rb_count_body_states(w, &w->counters.awake_bodies, &w->counters.frozen_bodies);
    *out = w->counters;
    return RB_OK;
}

rb_status rb_sync_from_backend(rb_world *w)
{
    if (!w->host_stale || !w->ops->download)
        return RB_OK;
    rb_status s = w->ops->download(w->backend);
    if (s != RB_OK)
        return rb_fail(w, s, "backend '%s' could not copy the scene back to the host: %s", w->ops->name,
                       rb_status_string(s));
    w->host_stale = false;
    return RB_OK;
}
