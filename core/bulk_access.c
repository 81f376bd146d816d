// Bulk reads and writes over body slots, and the contacts of the last step.
#include <string.h>

#include "world.h"

// Every slot of [first, first + count) must hold a live body.
static rb_world *bulk_range(rb_world_id id, int first, int count, const void *buffer, const char *fn, rb_status *s)
{
    rb_world *w = rb_get_world(id, s);
    if (!w)
        return NULL;
    if (count < 0 || first < 0 || first > w->scene.body_slots - count) {
        *s = rb_fail(w, RB_ERR_INVALID_ARGUMENT, "%s: range [%d, %lld) is outside the body slots [0, %d)", fn, first,
                     (long long)first + count, w->scene.body_slots);
        return NULL;
    }
    if (count > 0 && !buffer) {
        *s = rb_fail(w, RB_ERR_INVALID_ARGUMENT, "%s: buffer must not be NULL", fn);
        return NULL;
    }
    for (int i = first; i < first + count; ++i) {
        if (!(w->scene.body_flags[i] & RB_BODY_ALIVE)) {
            *s = rb_fail(w, RB_ERR_STALE_ID, "%s: body slot %d holds no live body", fn, i);
            return NULL;
        }
    }
    if ((*s = rb_sync_from_backend(w)) != RB_OK)
        return NULL;
    return w;
}

rb_status rb_world_get_transforms(rb_world_id id, int first, int count, rb_transform *out)
{
    rb_status s;
    rb_world *w = bulk_range(id, first, count, out, "rb_world_get_transforms", &s);
    if (!w)
        return s;
    for (int i = 0; i < count; ++i) {
        rb_xform x = rb_scene_body_origin(&w->scene, first + i);
        out[i] = (rb_transform){{x.p.x, x.p.y, x.p.z}, {x.q.x, x.q.y, x.q.z, x.q.w}};
    }
    return RB_OK;
}

rb_status rb_world_set_transforms(rb_world_id id, int first, int count, const rb_transform *in)
{
    rb_status s;
    rb_world *w = bulk_range(id, first, count, in, "rb_world_set_transforms", &s);
    if (!w)
        return s;
    // validate everything before changing anything
    for (int i = 0; i < count; ++i) {
        rb_quat q = in[i].q;
        // the same rules as rb_body_set_transform
        if (!rb_in_coordinate_range(rb_f3(in[i].p.x, in[i].p.y, in[i].p.z)) || !rb_check_quat(&q))
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                           "rb_world_set_transforms: transform %d (slot %d) must have a position within %g m of the "
                           "origin on each axis and a unit rotation",
                           i, first + i, RB_COORDINATE_LIMIT);
    }
    for (int i = 0; i < count; ++i) {
        rb_quat q = in[i].q;
        rb_check_quat(&q);
        rb_body_place(w, first + i, in[i].p, q);
        rb_unfreeze_body(w, first + i);
    }
    return RB_OK;
}

rb_status rb_world_get_velocities(rb_world_id id, int first, int count, rb_vec3 *linear, rb_vec3 *angular)
{
    rb_status s;
    rb_world *w = bulk_range(id, first, count, linear ? (void *)linear : (void *)angular, "rb_world_get_velocities", &s);
    if (!w)
        return s;
    for (int i = 0; i < count; ++i) {
        rb_float4 v = w->scene.body_lin_vel[first + i], a = w->scene.body_ang_vel[first + i];
        if (linear)
            linear[i] = (rb_vec3){v.x, v.y, v.z};
        if (angular)
            angular[i] = (rb_vec3){a.x, a.y, a.z};
    }
    return RB_OK;
}

rb_status rb_world_set_velocities(rb_world_id id, int first, int count, const rb_vec3 *linear, const rb_vec3 *angular)
{
    rb_status s;
    const void *any = linear ? (const void *)linear : (const void *)angular;
    rb_world *w = bulk_range(id, first, count, any, "rb_world_set_velocities", &s);
    if (!w)
        return s;
    for (int i = 0; i < count; ++i) {
        if ((linear && !rb_finite_vec3(linear[i])) || (angular && !rb_finite_vec3(angular[i])))
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_set_velocities: velocity %d (slot %d) is not finite", i,
                           first + i);
        if (rb_scene_body_type(&w->scene, first + i) == RB_BODY_STATIC_T)
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_set_velocities: slot %d is a static body", first + i);
    }
    rb_scene *sc = &w->scene;
    for (int i = 0; i < count; ++i) {
        int b = first + i;
        if (linear)
            sc->body_lin_vel[b] = rb_f4(linear[i].x, linear[i].y, linear[i].z, 0.0f);
        if (angular)
            sc->body_ang_vel[b] = rb_f4(angular[i].x, angular[i].y, angular[i].z, 0.0f);
        rb_float3 v = rb_xyz(sc->body_lin_vel[b]), a = rb_xyz(sc->body_ang_vel[b]);
        // as rb_body_set_*_velocity: a state set by the application brings a frozen body back
        if (rb_len_sq(v) > 0.0f || rb_len_sq(a) > 0.0f || (sc->body_flags[b] & RB_BODY_FROZEN))
            rb_unfreeze_body(w, b);
        rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
    }
    return RB_OK;
}

rb_status rb_world_get_awake(rb_world_id id, int first, int count, bool *out)
{
    rb_status s;
    rb_world *w = bulk_range(id, first, count, out, "rb_world_get_awake", &s);
    if (!w)
        return s;
    for (int i = 0; i < count; ++i)
        out[i] = (w->scene.body_flags[first + i] & RB_BODY_AWAKE) != 0;
    return RB_OK;
}

// ---- contacts ----

static rb_status manifolds(rb_world *w, const rb_contact_manifold **m, int *n)
{
    *m = NULL;
    *n = 0;
    if (w->contacts_stale)
        return RB_OK; // they named bodies or shapes that no longer exist
    rb_status s = w->ops->get_manifolds(w->backend, m, n);
    if (s != RB_OK)
        return rb_fail(w, s, "backend '%s' could not return the contacts", w->ops->name);
    return RB_OK;
}

rb_status rb_world_get_contact_count(rb_world_id id, int *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_contact_count: out must not be NULL");
    const rb_contact_manifold *m;
    int n;
    if ((s = manifolds(w, &m, &n)) != RB_OK)
        return s;
    int total = 0;
    for (int i = 0; i < n; ++i)
        total += m[i].m.count;
    *out = total;
    return RB_OK;
}

rb_status rb_world_get_contacts(rb_world_id id, int first, int count, rb_contact *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    const rb_contact_manifold *m;
    int n;
    if ((s = manifolds(w, &m, &n)) != RB_OK)
        return s;
    int total = 0;
    for (int i = 0; i < n; ++i)
        total += m[i].m.count;
    if (first < 0 || count < 0 || first > total - count)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_contacts: range [%d, %lld) is outside [0, %d)", first,
                       (long long)first + count, total);
    if (count > 0 && !out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_contacts: out must not be NULL");
    int k = 0, written = 0;
    for (int i = 0; i < n && written < count; ++i) {
        const rb_contact_manifold *c = &m[i];
        for (int j = 0; j < c->m.count && written < count; ++j, ++k) {
            if (k < first)
                continue;
            rb_contact *o = &out[written++];
            o->body_a = rb_make_body_id(w, c->body_a);
            o->body_b = rb_make_body_id(w, c->body_b);
            o->shape_a = rb_make_shape_id(w, c->shape_a);
            o->shape_b = rb_make_shape_id(w, c->shape_b);
            rb_float3 p = c->m.points[j].point, nn = c->m.normal;
            o->point = (rb_vec3){p.x, p.y, p.z};
            o->normal = (rb_vec3){nn.x, nn.y, nn.z};
            o->depth = -c->m.points[j].separation;
            o->normal_impulse = c->normal_impulse[j];
            rb_float3 f = c->friction_impulse[j];
            o->friction_impulse = (rb_vec3){f.x, f.y, f.z};
        }
    }
    return RB_OK;
}

void rb_wake_touching(rb_world *w, int body)
{
    const rb_contact_manifold *m;
    int n;
    if (w->contacts_stale || w->ops->get_manifolds(w->backend, &m, &n) != RB_OK)
        return;
    for (int i = 0; i < n; ++i) {
        if (m[i].body_a == body && m[i].body_b >= 0)
            rb_wake_body(w, m[i].body_b);
        else if (m[i].body_b == body && m[i].body_a >= 0)
            rb_wake_body(w, m[i].body_a);
    }
}
