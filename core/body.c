// Bodies: creation, destruction, state access, forces and impulses.
#include <stdlib.h>
#include <string.h>

#include "world.h"

rb_body_def rb_default_body_def(void)
{
    rb_body_def d;
    memset(&d, 0, sizeof d);
    d.type = RB_BODY_STATIC;
    d.rotation = (rb_quat){0.0f, 0.0f, 0.0f, 1.0f};
    d.gravity_scale = 1.0f;
    d.is_awake = true;
    d.enable_sleep = true;
    d.internal_value = RB_DEF_COOKIE;
    return d;
}

rb_status rb_reserve_body_slots(rb_world *w, int n)
{
    if (n <= w->scene.body_capacity && w->body_ids.generation)
        return RB_OK;
    int cap = w->scene.body_capacity > 0 ? w->scene.body_capacity : 64;
    while (cap < n)
        cap = cap < RB_MAX_BODIES / 2 ? cap * 2 : RB_MAX_BODIES;
    // host arrays are sized with the scene: grow them first against the old scene capacity (a world
    // created with a capacity hint has a scene capacity before it has host arrays)
    int old = w->body_ids.generation ? w->scene.body_capacity : 0;
    void *p;
#define GROW(field, type)                                                                          \
    if (!(p = rb_grow_zeroed(w->field, old, cap, sizeof(type))))                                       \
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing bodies to %d", cap);         \
    w->field = p;
    GROW(body_user_data, void *)
    GROW(body_first_shape, int)
    GROW(body_shape_count, int)
    GROW(body_target_mass, float)
    if (w->body_mass_data) {
        GROW(body_mass_data, rb_mass_data)
    }
#undef GROW
    // above every generation an earlier world in this world slot issued (world.h: id_generation_base)
    if (!rb_id_pool_grow(&w->body_ids, cap, w->id_generation_base))
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing bodies to %d", cap);
    if (!rb_scene_reserve_bodies(&w->scene, cap))
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing bodies to %d", cap);
    return RB_OK;
}

rb_body_id rb_make_body_id(const rb_world *w, int slot)
{
    rb_body_id id = {slot + 1, (uint16_t)w->index, w->body_ids.generation[slot]};
    return id;
}

rb_world *rb_get_body(rb_body_id id, int *slot, rb_status *status)
{
    rb_world *w = rb_world_of_object(id.index1, id.world0, "body", status);
    if (!w)
        return NULL;
    int b = id.index1 - 1;
    if (b >= w->scene.body_slots || !(w->scene.body_flags[b] & RB_BODY_ALIVE) ||
        !rb_id_pool_matches(&w->body_ids, b, id.generation)) {
        *status = rb_fail(w, RB_ERR_STALE_ID, "body id %d (generation %u) refers to a destroyed body", id.index1,
                          id.generation);
        return NULL;
    }
    *slot = b;
    *status = RB_OK;
    return w;
}

bool rb_body_is_valid(rb_body_id id)
{
    const rb_world *w = rb_world_of_object_quiet(id.index1, id.world0);
    if (!w) // also for index1 <= 0, whose slot index1 - 1 may not be computed
        return false;
    int b = id.index1 - 1;
    return b < w->scene.body_slots && (w->scene.body_flags[b] & RB_BODY_ALIVE) &&
           rb_id_pool_matches(&w->body_ids, b, id.generation);
}

bool rb_body_equal(rb_body_id a, rb_body_id b)
{
    return a.index1 == b.index1 && a.world0 == b.world0 && a.generation == b.generation;
}

static rb_status validate_body_def(rb_world *w, const rb_body_def *d, rb_quat *rotation)
{
    if (d->internal_value != RB_DEF_COOKIE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "body def was not initialised with rb_default_body_def()");
    if ((int)d->type < RB_BODY_STATIC || (int)d->type > RB_BODY_DYNAMIC)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "body type must be static, kinematic or dynamic, got %d", (int)d->type);
    if (!rb_in_coordinate_range(rb_f3(d->position.x, d->position.y, d->position.z))) // NaN fails too
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "body position must be finite and within %g m of the origin on each axis, got (%g, %g, %g)",
                       RB_COORDINATE_LIMIT, d->position.x, d->position.y, d->position.z);
    *rotation = d->rotation;
    if (!rb_check_quat(rotation))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "body rotation must be a finite unit quaternion, got (%g, %g, %g, %g)",
                       d->rotation.x, d->rotation.y, d->rotation.z, d->rotation.w);
    if (!rb_finite_vec3(d->linear_velocity) || !rb_finite_vec3(d->angular_velocity))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "body velocities must be finite");
    if (!(d->linear_damping >= 0.0f) || !isfinite(d->linear_damping))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "linear_damping must be finite and >= 0, got %g", d->linear_damping);
    if (!(d->angular_damping >= 0.0f) || !isfinite(d->angular_damping))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "angular_damping must be finite and >= 0, got %g", d->angular_damping);
    if (!isfinite(d->gravity_scale))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "gravity_scale must be finite, got %g", d->gravity_scale);
    // 1.4e-45 kg was accepted: a body without shapes then had inertia 0 and an infinite inverse mass
    if (!(d->mass == 0.0f || (d->mass >= 1e-30f && d->mass <= 1e30f)))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "body mass must be 0 (from shape densities) or in [1e-30, 1e30] kg, got %g", d->mass);
    if (d->type != RB_BODY_DYNAMIC && d->mass > 0.0f)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "only dynamic bodies have a mass; got mass %g on a %s body", d->mass,
                       d->type == RB_BODY_STATIC ? "static" : "kinematic");
    return RB_OK;
}

rb_status rb_create_body(rb_world_id wid, const rb_body_def *def, rb_body_id *out)
{
    rb_status s;
    rb_world *w = rb_get_world(wid, &s);
    if (!w)
        return s;
    if (!def || !out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_create_body: def and out must not be NULL");
    rb_quat q;
    if ((s = validate_body_def(w, def, &q)) != RB_OK)
        return s;
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;

    int b = rb_id_pool_next_free(&w->body_ids);
    if (b < 0) {
        if (w->scene.body_slots >= RB_MAX_BODIES)
            return rb_fail(w, RB_ERR_CAPACITY, "too many bodies: at most %d", RB_MAX_BODIES);
        if ((s = rb_reserve_body_slots(w, w->scene.body_slots + 1)) != RB_OK)
            return s;
        b = w->scene.body_slots;
    }
    // nothing can fail from here on
    if (b == w->scene.body_slots)
        w->scene.body_slots++;
    rb_id_pool_issue(&w->body_ids, b);

    rb_scene *sc = &w->scene;
    uint32_t type = (uint32_t)def->type;
    sc->body_pos[b] = rb_f4(def->position.x, def->position.y, def->position.z, 0.0f);
    sc->body_rot[b] = rb_f4(q.x, q.y, q.z, q.w);
    bool moving = type != RB_BODY_STATIC_T;
    sc->body_lin_vel[b] = moving ? rb_f4(def->linear_velocity.x, def->linear_velocity.y, def->linear_velocity.z, 0.0f)
                                 : rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    sc->body_ang_vel[b] = moving ? rb_f4(def->angular_velocity.x, def->angular_velocity.y, def->angular_velocity.z, 0.0f)
                                 : rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    sc->body_force[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    sc->body_torque[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    sc->body_local_center[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    sc->body_params[b] = rb_f4(def->linear_damping, def->angular_damping, def->gravity_scale, 0.0f);
    sc->body_flags[b] = type | RB_BODY_ALIVE | (def->enable_sleep ? RB_BODY_SLEEP_ENABLED : 0u) |
                        (def->is_bullet ? RB_BODY_BULLET : 0u) |
                        (moving && (def->is_awake || !w->settings.enable_sleep) ? RB_BODY_AWAKE : 0u);
    sc->body_sleep_group[b] = -1;
    w->body_user_data[b] = def->user_data;
    w->body_first_shape[b] = -1;
    w->body_shape_count[b] = 0;
    w->body_target_mass[b] = def->mass;
    w->body_count++;
    rb_update_body_mass(w, b, false); // cannot fail for a body without shapes
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE | RB_DIRTY_BODY_PROPS);
    *out = rb_make_body_id(w, b);
    return RB_OK;
}

rb_status rb_destroy_body(rb_body_id id)
{
    rb_status s;
    int b;
    rb_world *w = rb_get_body(id, &b, &s);
    if (!w)
        return s;
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    rb_scene *sc = &w->scene;
    // wake whatever rests on it, so nothing hangs in the air, and whatever hangs from it by a joint
    rb_wake_touching(w, b);
    rb_destroy_body_joints(w, b);
    for (int sh = w->body_first_shape[b]; sh >= 0;) {
        int next = w->shape_next[sh];
        if (sc->shape_type[sh] == RB_GEOM_CONVEX)
            rb_hull_add_user(w, rb_hull_of_shape(w, sh), -1);
        sc->shape_body[sh] = -1;
        sc->shape_type[sh] = -1;
        rb_id_pool_release(&w->shape_ids, sh);
        w->shape_user_data[sh] = NULL;
        w->shape_count--;
        rb_scene_mark_shape(sc, sh);
        sh = next;
    }
    w->contacts_stale = true;
    sc->body_flags[b] = 0;
    sc->body_lin_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    sc->body_ang_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
    rb_id_pool_release(&w->body_ids, b);
    w->body_user_data[b] = NULL;
    w->body_first_shape[b] = -1;
    w->body_shape_count[b] = 0;
    w->body_count--;
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE | RB_DIRTY_BODY_PROPS);
    return RB_OK;
}

rb_status rb_world_get_body_id(rb_world_id wid, int slot, rb_body_id *out)
{
    rb_status s;
    rb_world *w = rb_get_world(wid, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_body_id: out must not be NULL");
    if (slot < 0 || slot >= w->scene.body_slots || !(w->scene.body_flags[slot] & RB_BODY_ALIVE))
        return rb_fail(w, RB_ERR_STALE_ID, "body slot %d holds no live body (slots in use: %d)", slot,
                       w->scene.body_slots);
    *out = rb_make_body_id(w, slot);
    return RB_OK;
}

void rb_unfreeze_body(rb_world *w, int b)
{
    rb_scene *sc = &w->scene;
    if (sc->body_flags[b] & RB_BODY_FROZEN) {
        sc->body_flags[b] &= ~RB_BODY_FROZEN;
        rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
    }
    rb_wake_body(w, b);
}

void rb_count_body_states(const rb_world *w, int *awake, int *frozen)
{
    const rb_scene *sc = &w->scene;
    int a = 0, f = 0;
    for (int b = 0; b < sc->body_slots; ++b) {
        uint32_t flags = sc->body_flags[b];
        if (!(flags & RB_BODY_ALIVE))
            continue;
        f += (flags & RB_BODY_FROZEN) != 0;
        a += (flags & RB_BODY_AWAKE) && (flags & RB_BODY_TYPE_MASK) != RB_BODY_STATIC_T; // rb_joins_islands
    }
    *awake = a;
    *frozen = f;
}

void rb_trim_free_slots(rb_world *w, int body_slots, int shape_slots)
{
    rb_scene *sc = &w->scene;
    if (body_slots < sc->body_slots) {
        for (int b = body_slots; b < sc->body_slots; ++b)
            if (sc->body_flags[b] & RB_BODY_ALIVE)
                return; // not all free: keep every slot (never happens for a load's own bodies)
        rb_id_pool_trim(&w->body_ids, body_slots);
        sc->body_slots = body_slots;
        if (sc->dirty_body_hi > body_slots)
            sc->dirty_body_hi = body_slots;
        if (sc->dirty_body_lo > sc->dirty_body_hi)
            sc->dirty_body_lo = sc->dirty_body_hi;
    }
    if (shape_slots < sc->shape_slots) {
        for (int sh = shape_slots; sh < sc->shape_slots; ++sh)
            if (sc->shape_body[sh] >= 0)
                return;
        rb_id_pool_trim(&w->shape_ids, shape_slots);
        sc->shape_slots = shape_slots;
        if (sc->dirty_shape_hi > shape_slots)
            sc->dirty_shape_hi = shape_slots;
        if (sc->dirty_shape_lo > sc->dirty_shape_hi)
            sc->dirty_shape_lo = sc->dirty_shape_hi;
    }
}

void rb_wake_body(rb_world *w, int b)
{
    rb_scene *sc = &w->scene;
    uint32_t f = sc->body_flags[b];
    if ((f & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T || (f & RB_BODY_AWAKE) || (f & RB_BODY_FROZEN))
        return;
    sc->body_flags[b] = f | RB_BODY_AWAKE;
    sc->body_params[b].w = 0.0f; // sleep timer
    sc->body_sleep_group[b] = -1;
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
}

// Lookup + host sync shared by every body accessor below.
#define BODY_OR_RETURN(id, w, b)                                                                   \
    rb_status s_;                                                                                  \
    int b;                                                                                         \
    rb_world *w = rb_get_body(id, &b, &s_);                                                        \
    if (!w)                                                                                        \
        return s_;                                                                                 \
    if ((s_ = rb_sync_from_backend(w)) != RB_OK)                                                   \
        return s_;

#define CHECK_OUT(w, out, fn)                                                                      \
    if (!(out))                                                                                    \
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, fn ": output pointer must not be NULL");

rb_status rb_body_get_type(rb_body_id id, rb_body_type *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_get_type")
    *out = (rb_body_type)rb_scene_body_type(&w->scene, b);
    return RB_OK;
}

rb_status rb_body_set_type(rb_body_id id, rb_body_type type)
{
    BODY_OR_RETURN(id, w, b)
    if ((int)type < RB_BODY_STATIC || (int)type > RB_BODY_DYNAMIC)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "body type must be static, kinematic or dynamic, got %d", (int)type);
    rb_scene *sc = &w->scene;
    uint32_t old_flags = sc->body_flags[b];
    if ((old_flags & RB_BODY_TYPE_MASK) == (uint32_t)type)
        return RB_OK;
    if (type != RB_BODY_STATIC) {
        for (int sh = w->body_first_shape[b]; sh >= 0; sh = w->shape_next[sh])
            if (sc->shape_type[sh] == RB_GEOM_PLANE)
                return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a body with a plane shape must stay static");
    }
    sc->body_flags[b] = (old_flags & ~RB_BODY_TYPE_MASK) | (uint32_t)type;
    rb_status s = rb_update_body_mass(w, b, true);
    if (s != RB_OK) {
        sc->body_flags[b] = old_flags;
        return s;
    }
    rb_update_body_mass(w, b, false);
    if (type == RB_BODY_STATIC) {
        sc->body_flags[b] &= ~RB_BODY_AWAKE;
        sc->body_lin_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        sc->body_ang_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        rb_wake_touching(w, b);
    } else {
        sc->body_flags[b] |= RB_BODY_AWAKE;
        sc->body_params[b].w = 0.0f;
        sc->body_sleep_group[b] = -1;
    }
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE | RB_DIRTY_BODY_PROPS);
    return RB_OK;
}

rb_status rb_body_get_transform(rb_body_id id, rb_transform *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_get_transform")
    rb_xform x = rb_scene_body_origin(&w->scene, b);
    *out = (rb_transform){{x.p.x, x.p.y, x.p.z}, {x.q.x, x.q.y, x.q.z, x.q.w}};
    return RB_OK;
}

rb_status rb_body_get_position(rb_body_id id, rb_vec3 *out)
{
    rb_transform t;
    if (!out) {
        BODY_OR_RETURN(id, w, b)
        (void)b;
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_body_get_position: output pointer must not be NULL");
    }
    rb_status s = rb_body_get_transform(id, &t);
    if (s == RB_OK)
        *out = t.p;
    return s;
}

rb_status rb_body_get_rotation(rb_body_id id, rb_quat *out)
{
    rb_transform t;
    if (!out) {
        BODY_OR_RETURN(id, w, b)
        (void)b;
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_body_get_rotation: output pointer must not be NULL");
    }
    rb_status s = rb_body_get_transform(id, &t);
    if (s == RB_OK)
        *out = t.q;
    return s;
}

rb_status rb_body_get_world_center(rb_body_id id, rb_vec3 *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_get_world_center")
    rb_float4 p = w->scene.body_pos[b];
    *out = (rb_vec3){p.x, p.y, p.z};
    return RB_OK;
}

// Moves the body so its origin is at (p, q); the centre of mass follows. Shared with bulk access.
void rb_body_place(rb_world *w, int b, rb_vec3 p, rb_quat q)
{
    rb_scene *sc = &w->scene;
    rb_float4 qf = rb_f4(q.x, q.y, q.z, q.w);
    rb_float3 c = rb_rotate(qf, rb_xyz(sc->body_local_center[b]));
    sc->body_pos[b] = rb_f4(p.x + c.x, p.y + c.y, p.z + c.z, 0.0f);
    sc->body_rot[b] = qf;
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
}

rb_status rb_body_set_transform(rb_body_id id, rb_vec3 position, rb_quat rotation)
{
    BODY_OR_RETURN(id, w, b)
    if (!rb_in_coordinate_range(rb_f3(position.x, position.y, position.z)))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "position must be finite and within %g m of the origin on each axis, got (%g, %g, %g)",
                       RB_COORDINATE_LIMIT, position.x, position.y, position.z);
    rb_quat q = rotation;
    if (!rb_check_quat(&q))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rotation must be a finite unit quaternion, got (%g, %g, %g, %g)",
                       rotation.x, rotation.y, rotation.z, rotation.w);
    rb_body_place(w, b, position, q);
    rb_unfreeze_body(w, b);
    return RB_OK;
}

rb_status rb_body_get_linear_velocity(rb_body_id id, rb_vec3 *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_get_linear_velocity")
    rb_float4 v = w->scene.body_lin_vel[b];
    *out = (rb_vec3){v.x, v.y, v.z};
    return RB_OK;
}

rb_status rb_body_get_angular_velocity(rb_body_id id, rb_vec3 *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_get_angular_velocity")
    rb_float4 v = w->scene.body_ang_vel[b];
    *out = (rb_vec3){v.x, v.y, v.z};
    return RB_OK;
}

static rb_status set_velocity(rb_body_id id, rb_vec3 v, bool angular)
{
    BODY_OR_RETURN(id, w, b)
    if (!rb_finite_vec3(v))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "%s velocity must be finite, got (%g, %g, %g)",
                       angular ? "angular" : "linear", v.x, v.y, v.z);
    if (rb_scene_body_type(&w->scene, b) == RB_BODY_STATIC_T)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a static body cannot move; make it kinematic or dynamic first");
    rb_float4 *dst = angular ? &w->scene.body_ang_vel[b] : &w->scene.body_lin_vel[b];
    *dst = rb_f4(v.x, v.y, v.z, 0.0f);
    if (v.x != 0.0f || v.y != 0.0f || v.z != 0.0f || (w->scene.body_flags[b] & RB_BODY_FROZEN))
        rb_unfreeze_body(w, b);
    rb_scene_mark_body(&w->scene, b, RB_DIRTY_BODY_STATE);
    return RB_OK;
}

rb_status rb_body_set_linear_velocity(rb_body_id id, rb_vec3 v) { return set_velocity(id, v, false); }
rb_status rb_body_set_angular_velocity(rb_body_id id, rb_vec3 v) { return set_velocity(id, v, true); }

// Forces and impulses act on dynamic bodies only; on a sleeping body they are dropped unless `wake`.
static rb_world *force_target(rb_body_id id, int *b, bool wake, rb_vec3 a, rb_vec3 p, const char *what, rb_status *s,
                              bool *skip)
{
    *skip = false;
    rb_world *w = rb_get_body(id, b, s);
    if (!w)
        return NULL;
    if ((*s = rb_sync_from_backend(w)) != RB_OK)
        return NULL;
    if (!rb_finite_vec3(a) || !rb_finite_vec3(p)) {
        *s = rb_fail(w, RB_ERR_INVALID_ARGUMENT, "%s must be finite, got (%g, %g, %g) at (%g, %g, %g)", what, a.x, a.y,
                     a.z, p.x, p.y, p.z);
        return NULL;
    }
    uint32_t f = w->scene.body_flags[*b];
    if ((f & RB_BODY_TYPE_MASK) != RB_BODY_DYNAMIC_T) {
        *skip = true;
        return w;
    }
    if (!(f & RB_BODY_AWAKE)) { // asleep or frozen: acts only if it may wake the body
        if (!wake) {
            *skip = true;
            return w;
        }
        rb_unfreeze_body(w, *b);
    }
    return w;
}

rb_status rb_body_apply_force(rb_body_id id, rb_vec3 force, rb_vec3 point, bool wake)
{
    rb_status s;
    int b;
    bool skip;
    rb_world *w = force_target(id, &b, wake, force, point, "force", &s, &skip);
    if (!w || skip)
        return w ? RB_OK : s;
    rb_scene *sc = &w->scene;
    rb_float3 f = rb_f3(force.x, force.y, force.z);
    rb_float3 r = rb_sub(rb_f3(point.x, point.y, point.z), rb_xyz(sc->body_pos[b]));
    sc->body_force[b] = rb_f4_from3(rb_add(rb_xyz(sc->body_force[b]), f), 0.0f);
    sc->body_torque[b] = rb_f4_from3(rb_add(rb_xyz(sc->body_torque[b]), rb_cross(r, f)), 0.0f);
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
    return RB_OK;
}

rb_status rb_body_apply_force_to_center(rb_body_id id, rb_vec3 force, bool wake)
{
    rb_status s;
    int b;
    bool skip;
    rb_world *w = force_target(id, &b, wake, force, force, "force", &s, &skip);
    if (!w || skip)
        return w ? RB_OK : s;
    rb_scene *sc = &w->scene;
    sc->body_force[b] = rb_f4_from3(rb_add(rb_xyz(sc->body_force[b]), rb_f3(force.x, force.y, force.z)), 0.0f);
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
    return RB_OK;
}

rb_status rb_body_apply_torque(rb_body_id id, rb_vec3 torque, bool wake)
{
    rb_status s;
    int b;
    bool skip;
    rb_world *w = force_target(id, &b, wake, torque, torque, "torque", &s, &skip);
    if (!w || skip)
        return w ? RB_OK : s;
    rb_scene *sc = &w->scene;
    sc->body_torque[b] = rb_f4_from3(rb_add(rb_xyz(sc->body_torque[b]), rb_f3(torque.x, torque.y, torque.z)), 0.0f);
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
    return RB_OK;
}

// World-frame inverse inertia of a body from its local inverse tensor and orientation.
rb_mat3 rb_body_inv_inertia_world(const rb_scene *sc, int b)
{
    rb_float4 d = sc->body_inv_inertia_diag[b], o = sc->body_inv_inertia_offdiag[b];
    rb_mat3 local = rb_mat3_symmetric(rb_f3(d.x, d.y, d.z), rb_f3(o.x, o.y, o.z));
    return rb_mat3_rotate_tensor(sc->body_rot[b], local);
}

static void add_impulse(rb_world *w, int b, rb_float3 linear, rb_float3 angular)
{
    rb_scene *sc = &w->scene;
    float inv_m = sc->body_inv_inertia_diag[b].w;
    sc->body_lin_vel[b] = rb_f4_from3(rb_mad(rb_xyz(sc->body_lin_vel[b]), inv_m, linear), 0.0f);
    rb_float3 dw = rb_mat3_mulv(rb_body_inv_inertia_world(sc, b), angular);
    sc->body_ang_vel[b] = rb_f4_from3(rb_add(rb_xyz(sc->body_ang_vel[b]), dw), 0.0f);
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
}

rb_status rb_body_apply_linear_impulse(rb_body_id id, rb_vec3 impulse, rb_vec3 point, bool wake)
{
    rb_status s;
    int b;
    bool skip;
    rb_world *w = force_target(id, &b, wake, impulse, point, "impulse", &s, &skip);
    if (!w || skip)
        return w ? RB_OK : s;
    rb_float3 j = rb_f3(impulse.x, impulse.y, impulse.z);
    rb_float3 r = rb_sub(rb_f3(point.x, point.y, point.z), rb_xyz(w->scene.body_pos[b]));
    add_impulse(w, b, j, rb_cross(r, j));
    return RB_OK;
}

rb_status rb_body_apply_linear_impulse_to_center(rb_body_id id, rb_vec3 impulse, bool wake)
{
    rb_status s;
    int b;
    bool skip;
    rb_world *w = force_target(id, &b, wake, impulse, impulse, "impulse", &s, &skip);
    if (!w || skip)
        return w ? RB_OK : s;
    add_impulse(w, b, rb_f3(impulse.x, impulse.y, impulse.z), rb_f3(0.0f, 0.0f, 0.0f));
    return RB_OK;
}

rb_status rb_body_apply_angular_impulse(rb_body_id id, rb_vec3 impulse, bool wake)
{
    rb_status s;
    int b;
    bool skip;
    rb_world *w = force_target(id, &b, wake, impulse, impulse, "angular impulse", &s, &skip);
    if (!w || skip)
        return w ? RB_OK : s;
    add_impulse(w, b, rb_f3(0.0f, 0.0f, 0.0f), rb_f3(impulse.x, impulse.y, impulse.z));
    return RB_OK;
}

static rb_status set_param(rb_body_id id, int which, float value, const char *name, bool non_negative)
{
    BODY_OR_RETURN(id, w, b)
    if (!isfinite(value) || (non_negative && !(value >= 0.0f)))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "%s must be finite%s, got %g", name, non_negative ? " and >= 0" : "",
                       value);
    rb_float4 *p = &w->scene.body_params[b];
    if (which == 0)
        p->x = value;
    else if (which == 1)
        p->y = value;
    else
        p->z = value;
    rb_scene_mark_body(&w->scene, b, RB_DIRTY_BODY_PROPS);
    return RB_OK;
}

rb_status rb_body_set_linear_damping(rb_body_id id, float d) { return set_param(id, 0, d, "linear_damping", true); }
rb_status rb_body_set_angular_damping(rb_body_id id, float d) { return set_param(id, 1, d, "angular_damping", true); }
rb_status rb_body_set_gravity_scale(rb_body_id id, float g) { return set_param(id, 2, g, "gravity_scale", false); }

static rb_status get_param(rb_body_id id, int which, float *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_get_linear_damping / angular_damping / gravity_scale")
    rb_float4 p = w->scene.body_params[b];
    *out = which == 0 ? p.x : (which == 1 ? p.y : p.z);
    return RB_OK;
}

rb_status rb_body_get_linear_damping(rb_body_id id, float *out) { return get_param(id, 0, out); }
rb_status rb_body_get_angular_damping(rb_body_id id, float *out) { return get_param(id, 1, out); }
rb_status rb_body_get_gravity_scale(rb_body_id id, float *out) { return get_param(id, 2, out); }

rb_status rb_body_get_mass_data(rb_body_id id, rb_mass_data *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_get_mass_data")
    const rb_scene *sc = &w->scene;
    rb_float4 c = sc->body_local_center[b], d = sc->body_inertia_diag[b], o = sc->body_inertia_offdiag[b];
    out->mass = d.w;
    out->center = (rb_vec3){c.x, c.y, c.z};
    out->inertia = (rb_vec3){d.x, d.y, d.z};
    out->inertia_products = (rb_vec3){o.x, o.y, o.z};
    return RB_OK;
}

rb_status rb_body_get_mass(rb_body_id id, float *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_get_mass")
    *out = w->scene.body_inertia_diag[b].w;
    return RB_OK;
}

rb_status rb_body_is_awake(rb_body_id id, bool *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_is_awake")
    *out = (w->scene.body_flags[b] & RB_BODY_AWAKE) != 0;
    return RB_OK;
}

rb_status rb_body_set_awake(rb_body_id id, bool awake)
{
    BODY_OR_RETURN(id, w, b)
    rb_scene *sc = &w->scene;
    uint32_t f = sc->body_flags[b];
    if ((f & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T)
        return awake ? rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a static body cannot be woken") : RB_OK;
    if (awake) {
        rb_unfreeze_body(w, b);
    } else if (f & RB_BODY_AWAKE) {
        if (!w->settings.enable_sleep)
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "sleeping is disabled in this world; enable it first");
        sc->body_flags[b] = f & ~RB_BODY_AWAKE;
        sc->body_lin_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        sc->body_ang_vel[b] = rb_f4(0.0f, 0.0f, 0.0f, 0.0f);
        sc->body_sleep_group[b] = -1;
        rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
    }
    return RB_OK;
}

rb_status rb_body_enable_sleep(rb_body_id id, bool enable)
{
    BODY_OR_RETURN(id, w, b)
    rb_scene *sc = &w->scene;
    if (enable)
        sc->body_flags[b] |= RB_BODY_SLEEP_ENABLED;
    else
        sc->body_flags[b] &= ~RB_BODY_SLEEP_ENABLED;
    if (!enable)
        rb_wake_body(w, b);
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
    return RB_OK;
}

rb_status rb_body_set_bullet(rb_body_id id, bool bullet)
{
    BODY_OR_RETURN(id, w, b)
    rb_scene *sc = &w->scene;
    if (bullet)
        sc->body_flags[b] |= RB_BODY_BULLET;
    else
        sc->body_flags[b] &= ~RB_BODY_BULLET;
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
    return RB_OK;
}

rb_status rb_body_is_bullet(rb_body_id id, bool *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_is_bullet")
    *out = (w->scene.body_flags[b] & RB_BODY_BULLET) != 0;
    return RB_OK;
}

void *rb_body_get_user_data(rb_body_id id)
{
    rb_status s;
    int b;
    rb_world *w = rb_get_body(id, &b, &s);
    return w ? w->body_user_data[b] : NULL;
}

rb_status rb_body_set_user_data(rb_body_id id, void *user_data)
{
    rb_status s;
    int b;
    rb_world *w = rb_get_body(id, &b, &s);
    if (!w)
        return s;
    w->body_user_data[b] = user_data;
    return RB_OK;
}

rb_status rb_body_get_shape_count(rb_body_id id, int *out)
{
    BODY_OR_RETURN(id, w, b)
    CHECK_OUT(w, out, "rb_body_get_shape_count")
    *out = w->body_shape_count[b];
    return RB_OK;
}

rb_status rb_body_get_shapes(rb_body_id id, rb_shape_id *out, int capacity, int *count)
{
    BODY_OR_RETURN(id, w, b)
    if (capacity < 0 || (capacity > 0 && !out))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_body_get_shapes: need capacity >= 0 and an output array");
    int n = 0;
    // shapes are listed newest first internally; report them in creation order
    int total = w->body_shape_count[b];
    int i = total;
    for (int sh = w->body_first_shape[b]; sh >= 0; sh = w->shape_next[sh]) {
        --i;
        if (i < capacity) {
            out[i] = rb_make_shape_id(w, sh);
            ++n;
        }
    }
    (void)n;
    if (count)
        *count = total;
    return RB_OK;
}
