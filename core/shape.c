// Shapes: creation, destruction and properties. A shape belongs to one body; its mass joins the body's.
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mass_properties.h"
#include "world.h"

#define RB_MAX_SHAPE_SIZE 1.0e6f // m; larger values are almost certainly unit mistakes
#define RB_MIN_SHAPE_SIZE 1.0e-6f // m; the mass and inertia (~ density r^5) of far smaller shapes underflow a float

rb_shape_def rb_default_shape_def(void)
{
    rb_shape_def d;
    memset(&d, 0, sizeof d);
    d.local_rotation = (rb_quat){0.0f, 0.0f, 0.0f, 1.0f};
    d.density = 1000.0f;
    d.friction = 0.6f;
    d.restitution = 0.0f;
    d.category_bits = 1u;
    d.mask_bits = 0xffffffffu;
    d.internal_value = RB_DEF_COOKIE;
    return d;
}

rb_status rb_reserve_shape_slots(rb_world *w, int n)
{
    if (n <= w->scene.shape_capacity && w->shape_ids.generation)
        return RB_OK;
    int cap = w->scene.shape_capacity > 0 ? w->scene.shape_capacity : 64;
    while (cap < n)
        cap = cap < RB_MAX_SHAPES / 2 ? cap * 2 : RB_MAX_SHAPES;
    int old = w->shape_ids.generation ? w->scene.shape_capacity : 0; // see rb_reserve_body_slots
    void *p;
#define GROW(field, type)                                                                          \
    if (!(p = rb_grow_zeroed(w->field, old, cap, sizeof(type))))                                       \
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing shapes to %d", cap);         \
    w->field = p;
    GROW(shape_user_data, void *)
    GROW(shape_next, int)
#undef GROW
    if (!rb_id_pool_grow(&w->shape_ids, cap, w->id_generation_base)) // as body slots (body.c)
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing shapes to %d", cap);
    if (!rb_scene_reserve_shapes(&w->scene, cap))
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing shapes to %d", cap);
    return RB_OK;
}

rb_shape_id rb_make_shape_id(const rb_world *w, int slot)
{
    rb_shape_id id = {slot + 1, (uint16_t)w->index, w->shape_ids.generation[slot]};
    return id;
}

rb_world *rb_get_shape(rb_shape_id id, int *slot, rb_status *status)
{
    rb_world *w = rb_world_of_object(id.index1, id.world0, "shape", status);
    if (!w)
        return NULL;
    int sh = id.index1 - 1;
    if (sh >= w->scene.shape_slots || w->scene.shape_body[sh] < 0 || !rb_id_pool_matches(&w->shape_ids, sh, id.generation)) {
        *status = rb_fail(w, RB_ERR_STALE_ID, "shape id %d (generation %u) refers to a destroyed shape", id.index1,
                          id.generation);
        return NULL;
    }
    *slot = sh;
    *status = RB_OK;
    return w;
}

bool rb_shape_is_valid(rb_shape_id id)
{
    const rb_world *w = rb_world_of_object_quiet(id.index1, id.world0);
    if (!w) // also for index1 <= 0, whose slot index1 - 1 may not be computed
        return false;
    int sh = id.index1 - 1;
    return sh < w->scene.shape_slots && w->scene.shape_body[sh] >= 0 &&
           rb_id_pool_matches(&w->shape_ids, sh, id.generation);
}

bool rb_shape_equal(rb_shape_id a, rb_shape_id b)
{
    return a.index1 == b.index1 && a.world0 == b.world0 && a.generation == b.generation;
}

static rb_status validate_shape_def(rb_world *w, const rb_shape_def *d, rb_quat *rot)
{
    if (!d)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape def must not be NULL");
    if (d->internal_value != RB_DEF_COOKIE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape def was not initialised with rb_default_shape_def()");
    if (!rb_finite_vec3(d->local_position) || fabsf(d->local_position.x) > RB_MAX_SHAPE_SIZE ||
        fabsf(d->local_position.y) > RB_MAX_SHAPE_SIZE || fabsf(d->local_position.z) > RB_MAX_SHAPE_SIZE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape local_position must be finite and within %g m, got (%g, %g, %g)",
                       RB_MAX_SHAPE_SIZE, d->local_position.x, d->local_position.y, d->local_position.z);
    *rot = d->local_rotation;
    if (!rb_check_quat(rot))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape local_rotation must be a finite unit quaternion");
    if (!(d->density >= 0.0f) || !isfinite(d->density))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape density must be finite and >= 0, got %g", d->density);
    if (!(d->friction >= 0.0f) || !isfinite(d->friction))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape friction must be finite and >= 0, got %g", d->friction);
    if (!(d->static_friction == 0.0f || (d->static_friction >= d->friction && isfinite(d->static_friction))))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "shape static_friction must be 0 (same as friction) or finite and >= friction (%g), got %g",
                       d->friction, d->static_friction);
    if (!(d->restitution >= 0.0f && d->restitution <= 1.0f))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape restitution must be in [0, 1], got %g", d->restitution);
    return RB_OK;
}

static rb_status check_size(rb_world *w, const char *name, float v, bool allow_zero)
{
    bool ok = isfinite(v) && (allow_zero ? v >= 0.0f : v > 0.0f) && v <= RB_MAX_SHAPE_SIZE;
    if (!ok)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "%s must be finite, %s and at most %g m, got %g", name,
                       allow_zero ? ">= 0" : "> 0", RB_MAX_SHAPE_SIZE, v);
    if (!allow_zero && v < RB_MIN_SHAPE_SIZE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "%s must be at least %g m, got %g (the mass and inertia of smaller shapes underflow a 32-bit "
                       "float)", name, RB_MIN_SHAPE_SIZE, v);
    return RB_OK;
}

// A shape's own mass (density x volume) and inertia about its centre must be 32-bit floats that are
// neither infinite nor below the normal range, or the body's mass, inertia and their inverses are not.
static rb_status check_shape_mass(rb_world *w, int type, rb_float4 p, float density)
{
    if (type == RB_GEOM_PLANE || density == 0.0f)
        return RB_OK;
    double volume, centre[3], model[6];
    rb_shape_mass_model(w, type, p, &volume, centre, model);
    double mass = (double)density * volume;
    double lo = mass * fmin(model[0], fmin(model[1], model[2])), hi = mass * fmax(model[0], fmax(model[1], model[2]));
    if (mass >= FLT_MIN && mass <= FLT_MAX && lo >= FLT_MIN && hi <= FLT_MAX)
        return RB_OK;
    char size[160];
    if (type == RB_GEOM_SPHERE)
        rb_format(size, sizeof size, "sphere radius %g m", p.x);
    else if (type == RB_GEOM_CAPSULE)
        rb_format(size, sizeof size, "capsule radius %g m, half_length %g m", p.y, p.x);
    else if (type == RB_GEOM_CONVEX)
        rb_format(size, sizeof size, "convex hull of volume %g m^3 with radius %g m", volume, p.x);
    else
        rb_format(size, sizeof size, "box half_extents (%g, %g, %g) m", p.x, p.y, p.z);
    return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                   "%s with density %g kg/m^3 gives a mass of %g kg and inertia %g to %g kg m^2; each must be within "
                   "the 32-bit float range [%g, %g]", size, density, mass, lo, hi, FLT_MIN, FLT_MAX);
}

// Adds a shape to a body; on any failure the body and world are left as they were.
static rb_status create_shape(rb_body_id body_id, const rb_shape_def *def, int type, rb_float4 params,
                              rb_shape_id *out)
{
    rb_status s;
    int b;
    rb_world *w = rb_get_body(body_id, &b, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape output id pointer must not be NULL");
    rb_quat rot;
    if ((s = validate_shape_def(w, def, &rot)) != RB_OK)
        return s;
    if ((s = check_shape_mass(w, type, params, def->density)) != RB_OK ||
        (s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    rb_scene *sc = &w->scene;
    if (type == RB_GEOM_PLANE && rb_scene_body_type(sc, b) != RB_BODY_STATIC_T)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "plane shapes are allowed on static bodies only");

    int sh = rb_id_pool_next_free(&w->shape_ids);
    if (sh < 0) {
        if (sc->shape_slots >= RB_MAX_SHAPES)
            return rb_fail(w, RB_ERR_CAPACITY, "too many shapes: at most %d", RB_MAX_SHAPES);
        if ((s = rb_reserve_shape_slots(w, sc->shape_slots + 1)) != RB_OK)
            return s;
        sh = sc->shape_slots;
    }
    sc->shape_body[sh] = b;
    sc->shape_type[sh] = type;
    sc->shape_local_pos[sh] = rb_f4(def->local_position.x, def->local_position.y, def->local_position.z, 0.0f);
    sc->shape_local_rot[sh] = rb_f4(rot.x, rot.y, rot.z, rot.w);
    sc->shape_params[sh] = params;
    sc->shape_material[sh] = rb_f4(def->friction, def->restitution, def->density, def->static_friction);
    sc->shape_filter[2 * sh] = def->category_bits;
    sc->shape_filter[2 * sh + 1] = def->mask_bits;
    w->shape_next[sh] = w->body_first_shape[b];
    w->body_first_shape[b] = sh;
    w->body_shape_count[b]++;
    uint32_t old_flags = sc->body_flags[b];
    sc->body_flags[b] &= ~RB_BODY_FIXED_MASS; // a new shape brings its own mass

    if ((s = rb_body_mass_add_shape(w, b, sh, true)) != RB_OK) {
        // undo: unlink and free the slot again
        w->body_first_shape[b] = w->shape_next[sh];
        w->body_shape_count[b]--;
        sc->shape_body[sh] = -1;
        sc->shape_type[sh] = -1;
        sc->body_flags[b] = old_flags;
        return s;
    }
    if (sh == sc->shape_slots)
        sc->shape_slots++;
    rb_id_pool_issue(&w->shape_ids, sh);
    w->shape_user_data[sh] = def->user_data;
    w->shape_count++;
    if (type == RB_GEOM_CONVEX)
        rb_hull_add_user(w, rb_hull_of_shape(w, sh), 1);
    rb_body_mass_add_shape(w, b, sh, false);
    rb_scene_mark_shape(sc, sh);
    rb_wake_body(w, b);
    *out = rb_make_shape_id(w, sh);
    return RB_OK;
}

static rb_status body_world(rb_body_id id, rb_world **w)
{
    rb_status s;
    int b;
    *w = rb_get_body(id, &b, &s);
    return s;
}

rb_status rb_create_sphere_shape(rb_body_id body, const rb_shape_def *def, const rb_sphere *sphere, rb_shape_id *out)
{
    rb_world *w;
    rb_status s = body_world(body, &w);
    if (s != RB_OK)
        return s;
    if (!sphere)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "sphere must not be NULL");
    if ((s = check_size(w, "sphere radius", sphere->radius, false)) != RB_OK)
        return s;
    return create_shape(body, def, RB_GEOM_SPHERE, rb_f4(sphere->radius, 0.0f, 0.0f, 0.0f), out);
}

rb_status rb_create_capsule_shape(rb_body_id body, const rb_shape_def *def, const rb_capsule *capsule, rb_shape_id *out)
{
    rb_world *w;
    rb_status s = body_world(body, &w);
    if (s != RB_OK)
        return s;
    if (!capsule)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "capsule must not be NULL");
    if ((s = check_size(w, "capsule radius", capsule->radius, false)) != RB_OK ||
        (s = check_size(w, "capsule half_length", capsule->half_length, true)) != RB_OK)
        return s;
    return create_shape(body, def, RB_GEOM_CAPSULE, rb_f4(capsule->half_length, capsule->radius, 0.0f, 0.0f), out);
}

rb_status rb_create_box_shape(rb_body_id body, const rb_shape_def *def, const rb_box *box, rb_shape_id *out)
{
    rb_world *w;
    rb_status s = body_world(body, &w);
    if (s != RB_OK)
        return s;
    if (!box)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "box must not be NULL");
    if ((s = check_size(w, "box half_extents.x", box->half_extents.x, false)) != RB_OK ||
        (s = check_size(w, "box half_extents.y", box->half_extents.y, false)) != RB_OK ||
        (s = check_size(w, "box half_extents.z", box->half_extents.z, false)) != RB_OK)
        return s;
    return create_shape(body, def, RB_GEOM_BOX, rb_f4(box->half_extents.x, box->half_extents.y, box->half_extents.z, 0.0f),
                        out);
}

rb_status rb_create_plane_shape(rb_body_id body, const rb_shape_def *def, const rb_plane *plane, rb_shape_id *out)
{
    rb_world *w;
    rb_status s = body_world(body, &w);
    if (s != RB_OK)
        return s;
    if (!plane)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "plane must not be NULL");
    // in double: |n|² of a float normal longer than ~1.8e19 overflows float, and n / inf was (0, 0, 0)
    double len = sqrt((double)plane->normal.x * plane->normal.x + (double)plane->normal.y * plane->normal.y +
                      (double)plane->normal.z * plane->normal.z);
    if (!rb_finite_vec3(plane->normal) || !(len > 1e-6))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "plane normal must be finite and non-zero, got (%g, %g, %g)",
                       plane->normal.x, plane->normal.y, plane->normal.z);
    if (!isfinite(plane->offset))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "plane offset must be finite, got %g", plane->offset);
    // the plane's distance from the origin, once the normal is unit: within the simulated coordinates (a
    // normal of length 0.1 and an offset of 3e38 put the plane at infinity)
    if (!(fabs((double)plane->offset / len) <= (double)RB_COORDINATE_LIMIT))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "plane offset / |normal| must be within %g m (the plane's distance from the origin), got %g / %g",
                       RB_COORDINATE_LIMIT, plane->offset, len);
    // (n, d) scaled together so the plane stays the same set of points
    return create_shape(body, def, RB_GEOM_PLANE,
                        rb_f4((float)(plane->normal.x / len), (float)(plane->normal.y / len),
                              (float)(plane->normal.z / len), (float)(plane->offset / len)),
                        out);
}

rb_status rb_create_convex_shape(rb_body_id body, const rb_shape_def *def, const rb_convex *convex, rb_shape_id *out)
{
    rb_world *w;
    rb_status s = body_world(body, &w);
    if (s != RB_OK)
        return s;
    if (!convex)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "convex must not be NULL");
    int hull;
    rb_world *hw = rb_get_hull(convex->hull, &hull, &s);
    if (!hw)
        return s;
    if (hw != w)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "convex shape: hull %d belongs to another world", convex->hull.index1);
    if ((s = check_size(w, "convex radius", convex->radius, true)) != RB_OK)
        return s;
    // (rounding radius, record offset, bounding radius and inradius of the rounded hull): shape_geom.h
    rb_float4 params = rb_f4(convex->radius, (float)rb_hull_offset(w, hull), rb_hull_slot_radius(w, hull) + convex->radius,
                             rb_hull_slot_inradius(w, hull) + convex->radius);
    return create_shape(body, def, RB_GEOM_CONVEX, params, out);
}

rb_status rb_destroy_shape(rb_shape_id id)
{
    rb_status s;
    int sh;
    rb_world *w = rb_get_shape(id, &sh, &s);
    if (!w)
        return s;
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    rb_scene *sc = &w->scene;
    int b = sc->shape_body[sh];
    // unlink from the body's list
    int *link = &w->body_first_shape[b];
    while (*link != sh)
        link = &w->shape_next[*link];
    *link = w->shape_next[sh];
    w->body_shape_count[b]--;
    int saved_type = sc->shape_type[sh];
    sc->shape_body[sh] = -1;
    sc->shape_type[sh] = -1;
    uint32_t old_flags = sc->body_flags[b];
    sc->body_flags[b] &= ~RB_BODY_FIXED_MASS;
    if ((s = rb_update_body_mass(w, b, true)) != RB_OK) {
        // removing the last massive shape of a dynamic body: refuse, restore the link
        sc->shape_body[sh] = b;
        sc->shape_type[sh] = saved_type;
        w->shape_next[sh] = *link;
        *link = sh;
        w->body_shape_count[b]++;
        sc->body_flags[b] = old_flags;
        return s;
    }
    rb_wake_touching(w, b);
    w->contacts_stale = true;
    rb_id_pool_release(&w->shape_ids, sh);
    w->shape_user_data[sh] = NULL;
    w->shape_count--;
    if (saved_type == RB_GEOM_CONVEX)
        rb_hull_add_user(w, rb_hull_of_shape(w, sh), -1);
    rb_update_body_mass(w, b, false);
    rb_wake_body(w, b);
    rb_scene_mark_shape(sc, sh);
    return RB_OK;
}

#define SHAPE_OR_RETURN(id, w, sh)                                                                 \
    rb_status s_;                                                                                  \
    int sh;                                                                                        \
    rb_world *w = rb_get_shape(id, &sh, &s_);                                                      \
    if (!w)                                                                                        \
        return s_;

rb_status rb_shape_get_type(rb_shape_id id, rb_shape_type *out)
{
    SHAPE_OR_RETURN(id, w, sh)
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_shape_get_type: out must not be NULL");
    *out = (rb_shape_type)w->scene.shape_type[sh];
    return RB_OK;
}

rb_status rb_shape_get_body(rb_shape_id id, rb_body_id *out)
{
    SHAPE_OR_RETURN(id, w, sh)
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_shape_get_body: out must not be NULL");
    *out = rb_make_body_id(w, w->scene.shape_body[sh]);
    return RB_OK;
}

static rb_status get_geometry(rb_shape_id id, int type, rb_float4 *params)
{
    SHAPE_OR_RETURN(id, w, sh)
    if (!params)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "geometry output must not be NULL");
    if (w->scene.shape_type[sh] != type)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape %d is not of the requested type", id.index1);
    *params = w->scene.shape_params[sh];
    return RB_OK;
}

rb_status rb_shape_get_sphere(rb_shape_id id, rb_sphere *out)
{
    rb_float4 p;
    rb_status s = get_geometry(id, RB_GEOM_SPHERE, out ? &p : NULL);
    if (s == RB_OK)
        out->radius = p.x;
    return s;
}

rb_status rb_shape_get_capsule(rb_shape_id id, rb_capsule *out)
{
    rb_float4 p;
    rb_status s = get_geometry(id, RB_GEOM_CAPSULE, out ? &p : NULL);
    if (s == RB_OK)
        *out = (rb_capsule){p.x, p.y};
    return s;
}

rb_status rb_shape_get_box(rb_shape_id id, rb_box *out)
{
    rb_float4 p;
    rb_status s = get_geometry(id, RB_GEOM_BOX, out ? &p : NULL);
    if (s == RB_OK)
        out->half_extents = (rb_vec3){p.x, p.y, p.z};
    return s;
}

rb_status rb_shape_get_plane(rb_shape_id id, rb_plane *out)
{
    rb_float4 p;
    rb_status s = get_geometry(id, RB_GEOM_PLANE, out ? &p : NULL);
    if (s == RB_OK)
        *out = (rb_plane){{p.x, p.y, p.z}, p.w};
    return s;
}

rb_status rb_shape_get_convex(rb_shape_id id, rb_convex *out)
{
    rb_float4 p;
    rb_status s = get_geometry(id, RB_GEOM_CONVEX, out ? &p : NULL);
    if (s == RB_OK) {
        const rb_world *w = rb_world_of_object_quiet(id.index1, id.world0);
        out->hull = rb_make_hull_id(w, (int)w->scene.hull_pool[(int)p.y].w);
        out->radius = p.x;
    }
    return s;
}

rb_status rb_shape_get_local_transform(rb_shape_id id, rb_transform *out)
{
    SHAPE_OR_RETURN(id, w, sh)
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_shape_get_local_transform: out must not be NULL");
    rb_float4 p = w->scene.shape_local_pos[sh], q = w->scene.shape_local_rot[sh];
    *out = (rb_transform){{p.x, p.y, p.z}, {q.x, q.y, q.z, q.w}};
    return RB_OK;
}

static rb_status set_material(rb_shape_id id, int which, float v)
{
    SHAPE_OR_RETURN(id, w, sh)
    const char *names[] = {"friction", "restitution", "density", "static_friction"};
    bool ok = isfinite(v) && v >= 0.0f && (which != 1 || v <= 1.0f);
    if (!ok)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape %s must be finite and %s, got %g", names[which],
                       which == 1 ? "in [0, 1]" : ">= 0", v);
    if ((s_ = rb_sync_from_backend(w)) != RB_OK)
        return s_;
    rb_scene *sc = &w->scene;
    rb_float4 old = sc->shape_material[sh];
    rb_float4 m = old;
    if (which == 0)
        m.x = v;
    else if (which == 1)
        m.y = v;
    else if (which == 2)
        m.z = v;
    else
        m.w = v;
    // mu_s (0 = same as mu_k) may not be below mu_k
    if (m.w != 0.0f && m.w < m.x)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "shape static_friction (%g) must be 0 or >= friction (%g)", m.w, m.x);
    sc->shape_material[sh] = m;
    if (which == 2) {
        int b = sc->shape_body[sh];
        if ((s_ = rb_update_body_mass(w, b, true)) != RB_OK) {
            sc->shape_material[sh] = old;
            return s_;
        }
        rb_update_body_mass(w, b, false);
    }
    rb_scene_mark_shape(sc, sh);
    return RB_OK;
}

static rb_status get_material(rb_shape_id id, int which, float *out)
{
    SHAPE_OR_RETURN(id, w, sh)
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "material output must not be NULL");
    rb_float4 m = w->scene.shape_material[sh];
    *out = which == 0 ? m.x : (which == 1 ? m.y : (which == 2 ? m.z : m.w));
    return RB_OK;
}

rb_status rb_shape_set_friction(rb_shape_id id, float v) { return set_material(id, 0, v); }
rb_status rb_shape_set_restitution(rb_shape_id id, float v) { return set_material(id, 1, v); }
rb_status rb_shape_set_density(rb_shape_id id, float v) { return set_material(id, 2, v); }
rb_status rb_shape_set_static_friction(rb_shape_id id, float v) { return set_material(id, 3, v); }
rb_status rb_shape_get_friction(rb_shape_id id, float *out) { return get_material(id, 0, out); }
rb_status rb_shape_get_restitution(rb_shape_id id, float *out) { return get_material(id, 1, out); }
rb_status rb_shape_get_density(rb_shape_id id, float *out) { return get_material(id, 2, out); }
rb_status rb_shape_get_static_friction(rb_shape_id id, float *out) { return get_material(id, 3, out); }

rb_status rb_shape_get_aabb(rb_shape_id id, rb_vec3 *lower, rb_vec3 *upper)
{
    SHAPE_OR_RETURN(id, w, sh)
    if (!lower || !upper)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_shape_get_aabb: outputs must not be NULL");
    if ((s_ = rb_sync_from_backend(w)) != RB_OK)
        return s_;
    const rb_scene *sc = &w->scene;
    if (sc->shape_type[sh] == RB_GEOM_PLANE)
        return rb_fail(w, RB_ERR_UNSUPPORTED, "a plane is unbounded and has no bounding box");
    rb_xform body = rb_scene_body_origin(sc, sc->shape_body[sh]);
    rb_xform local = rb_xform_make(rb_xyz(sc->shape_local_pos[sh]), sc->shape_local_rot[sh]);
    rb_geom g = rb_geom_make_pooled(sc->shape_type[sh], rb_xform_mul(body, local), sc->shape_params[sh],
                                    sc->hull_pool);
    rb_float3 lo, hi;
    rb_geom_aabb(g, 0.0f, &lo, &hi);
    *lower = (rb_vec3){lo.x, lo.y, lo.z};
    *upper = (rb_vec3){hi.x, hi.y, hi.z};
    return RB_OK;
}

void *rb_shape_get_user_data(rb_shape_id id)
{
    rb_status s;
    int sh;
    rb_world *w = rb_get_shape(id, &sh, &s);
    return w ? w->shape_user_data[sh] : NULL;
}

rb_status rb_shape_set_user_data(rb_shape_id id, void *user_data)
{
    SHAPE_OR_RETURN(id, w, sh)
    w->shape_user_data[sh] = user_data;
    return RB_OK;
}
