// Joints (api/rubble.h, "Joints"; docs/joints.md): defs, creation and destruction, getters and setters.
// The joints live in the scene (scene.joints, core/kernels/joint.h) where the backend solves them; the
// ids' generations, the user data and the free slots are the world's.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "world.h"

#define RB_MAX_JOINTS (1 << 28)

static rb_joint_def default_def(rb_joint_type type)
{
    rb_joint_def d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.axis = (rb_vec3){0.0f, 0.0f, 1.0f};
    d.swing_span1 = 0.25f * RB_PI;
    d.swing_span2 = 0.25f * RB_PI;
    d.twist_span = 0.25f * RB_PI;
    d.internal_value = RB_DEF_COOKIE;
    return d;
}

rb_joint_def rb_default_ball_joint_def(void) { return default_def(RB_JOINT_BALL); }
rb_joint_def rb_default_hinge_joint_def(void) { return default_def(RB_JOINT_HINGE); }
rb_joint_def rb_default_cone_twist_joint_def(void) { return default_def(RB_JOINT_CONE_TWIST); }
rb_joint_def rb_default_fixed_joint_def(void) { return default_def(RB_JOINT_FIXED); }
rb_joint_def rb_default_distance_joint_def(void) { return default_def(RB_JOINT_DISTANCE); }
rb_joint_def rb_default_slider_joint_def(void) { return default_def(RB_JOINT_SLIDER); }

rb_joint_def rb_default_spring_joint_def(void)
{
    rb_joint_def d = default_def(RB_JOINT_SPRING);
    d.enable_spring = true;
    d.hertz = 1.0f;
    d.damping_ratio = 0.1f;
    return d;
}

static const char *type_name(int type)
{
    static const char *names[] = {"ball", "hinge", "cone-twist", "fixed", "distance", "spring", "slider"};
    return type >= 0 && type < RB_JK_TYPES ? names[type] : "unknown";
}

// ---- ids ----

static rb_joint_id make_id(const rb_world *w, int slot)
{
    rb_joint_id id = {slot + 1, (uint16_t)w->index, w->joint_ids.generation[slot]};
    return id;
}

static rb_world *get_joint(rb_joint_id id, int *slot, rb_status *status)
{
    rb_world *w = rb_world_of_object(id.index1, id.world0, "joint", status);
    if (!w)
        return NULL;
    int j = id.index1 - 1;
    if (j >= w->scene.joint_slots || w->scene.joints[j].type < 0 || !rb_id_pool_matches(&w->joint_ids, j, id.generation)) {
        *status = rb_fail(w, RB_ERR_STALE_ID, "joint id %d (generation %u) refers to a destroyed joint", id.index1,
                          id.generation);
        return NULL;
    }
    *slot = j;
    *status = RB_OK;
    return w;
}

bool rb_joint_is_valid(rb_joint_id id)
{
    const rb_world *w = rb_world_of_object_quiet(id.index1, id.world0);
    if (!w) // also for index1 <= 0, whose slot index1 - 1 may not be computed
        return false;
    int j = id.index1 - 1;
    return j < w->scene.joint_slots && w->scene.joints[j].type >= 0 &&
           rb_id_pool_matches(&w->joint_ids, j, id.generation);
}

bool rb_joint_equal(rb_joint_id a, rb_joint_id b)
{
    return a.index1 == b.index1 && a.world0 == b.world0 && a.generation == b.generation;
}

static rb_status reserve_joints(rb_world *w, int n)
{
    rb_scene *sc = &w->scene;
    if (n <= sc->joint_capacity)
        return RB_OK;
    int cap = sc->joint_capacity > 0 ? sc->joint_capacity : 16;
    while (cap < n)
        cap = cap < RB_MAX_JOINTS / 2 ? cap * 2 : RB_MAX_JOINTS;
    rb_joint *joints = realloc(sc->joints, sizeof *joints * (size_t)cap);
    if (!joints)
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing joints to %d", cap);
    sc->joints = joints;
    void **user = realloc(w->joint_user_data, sizeof *user * (size_t)cap);
    if (!user)
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing joints to %d", cap);
    w->joint_user_data = user;
    if (!rb_id_pool_grow(&w->joint_ids, cap, w->id_generation_base))
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing joints to %d", cap);
    sc->joint_capacity = cap;
    return RB_OK;
}

// ---- validation ----

static bool finite_in(float v, float lo, float hi) { return isfinite(v) && v >= lo && v <= hi; }

static rb_status check_limits(rb_world *w, int type, float lower, float upper)
{
    if (!isfinite(lower) || !isfinite(upper) || lower > upper)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "%s joint limits must be finite with lower <= upper, got [%g, %g]",
                       type_name(type), lower, upper);
    if (type == RB_JK_HINGE && (lower < -RB_PI || upper > RB_PI))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hinge limits must lie in [-pi, pi] rad, got [%g, %g]", lower, upper);
    if ((type == RB_JK_DISTANCE || type == RB_JK_SPRING) && lower < 0.0f)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "distance limits must be >= 0 m, got [%g, %g]", lower, upper);
    return RB_OK;
}

static rb_status check_cone(rb_world *w, float s1, float s2, float twist)
{
    float pi = RB_PI;
    if (!(finite_in(s1, 0.0f, pi) && s1 > 0.0f && s1 < pi) || !(finite_in(s2, 0.0f, pi) && s2 > 0.0f && s2 < pi))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "cone-twist swing spans must lie in (0, pi) rad, got %g and %g", s1, s2);
    if (!finite_in(twist, 0.0f, pi))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "cone-twist twist span must lie in [0, pi] rad, got %g", twist);
    return RB_OK;
}

static rb_status check_spring(rb_world *w, int type, bool enable, float hertz, float ratio, float k, float c)
{
    if (!finite_in(hertz, 0.0f, 1e9f) || !finite_in(ratio, 0.0f, 1e9f) || !finite_in(k, 0.0f, 1e30f) ||
        !finite_in(c, 0.0f, 1e30f))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "spring hertz, damping_ratio, stiffness and damping must be finite and >= 0, got %g, %g, %g, %g",
                       hertz, ratio, k, c);
    if (type == RB_JK_SPRING && !enable)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a spring joint's spring cannot be switched off (use a distance joint)");
    if (enable && hertz == 0.0f && k == 0.0f && c == 0.0f)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a spring needs hertz > 0, or a stiffness or damping > 0");
    return RB_OK;
}

static rb_status check_motor(rb_world *w, float speed, float max_force)
{
    if (!isfinite(speed) || !finite_in(max_force, 0.0f, 1e30f))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "motor speed must be finite and max force finite and >= 0, got %g and %g",
                       speed, max_force);
    return RB_OK;
}

// The rotation whose columns are x̂, ŷ, ẑ (orthonormal, right-handed) as a quaternion (x, y, z, w).
static rb_float4 quat_from_axes(rb_float3 x, rb_float3 y, rb_float3 z)
{
    float m00 = x.x, m11 = y.y, m22 = z.z, tr = m00 + m11 + m22;
    rb_float4 q;
    if (tr > 0.0f) {
        float s = sqrtf(tr + 1.0f) * 2.0f;
        q = rb_f4((y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s, 0.25f * s);
    } else if (m00 > m11 && m00 > m22) {
        float s = sqrtf(1.0f + m00 - m11 - m22) * 2.0f;
        q = rb_f4(0.25f * s, (y.x + x.y) / s, (z.x + x.z) / s, (y.z - z.y) / s);
    } else if (m11 > m22) {
        float s = sqrtf(1.0f + m11 - m00 - m22) * 2.0f;
        q = rb_f4((y.x + x.y) / s, 0.25f * s, (z.y + y.z) / s, (z.x - x.z) / s);
    } else {
        float s = sqrtf(1.0f + m22 - m00 - m11) * 2.0f;
        q = rb_f4((z.x + x.z) / s, (z.y + y.z) / s, 0.25f * s, (x.y - y.x) / s);
    }
    return rb_quat_normalize(q);
}

// Any unit vector across unit n.
static rb_float3 perpendicular(rb_float3 n)
{
    rb_float3 t = fabsf(n.x) < 0.57f ? rb_f3(1.0f, 0.0f, 0.0f) : rb_f3(0.0f, 1.0f, 0.0f);
    return rb_normalize(rb_cross(n, t));
}

// The joint frame's x̂ and ŷ in the world at creation: `axis` is ẑ of a hinge, x̂ of a cone-twist and a
// slider; the reference axis (projected across it) is ŷ. Types without an axis take the world's axes.
static rb_status world_frame(rb_world *w, const rb_joint_def *d, rb_float3 *x, rb_float3 *y)
{
    rb_float3 a = rb_f3(d->axis.x, d->axis.y, d->axis.z), r = rb_f3(d->reference_axis.x, d->reference_axis.y, d->reference_axis.z);
    bool uses_axis = d->type == RB_JOINT_HINGE || d->type == RB_JOINT_CONE_TWIST || d->type == RB_JOINT_SLIDER;
    if (!rb_finite_vec3(d->axis) || !rb_finite_vec3(d->reference_axis))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "joint axis and reference_axis must be finite");
    *x = rb_f3(1.0f, 0.0f, 0.0f);
    *y = rb_f3(0.0f, 1.0f, 0.0f);
    if (!uses_axis)
        return RB_OK;
    float len = rb_len(a);
    if (!(len > 1e-6f))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a %s joint needs an axis of length > 0, got (%g, %g, %g)",
                       type_name((int)d->type), d->axis.x, d->axis.y, d->axis.z);
    a = rb_scale(a, 1.0f / len);
    rb_float3 ref;
    if (rb_len_sq(r) > 0.0f) {
        ref = rb_sub(r, rb_scale(a, rb_dot(r, a)));
        if (!(rb_len(ref) > 1e-3f * rb_len(r)))
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "joint reference_axis (%g, %g, %g) must not be parallel to the axis",
                           d->reference_axis.x, d->reference_axis.y, d->reference_axis.z);
        ref = rb_normalize(ref);
    } else {
        ref = perpendicular(a);
    }
    *y = ref;
    *x = d->type == RB_JOINT_HINGE ? rb_cross(ref, a) : a; // hinge: x̂ = ŷ × ẑ with ẑ = axis
    return RB_OK;
}

static rb_world *def_body(rb_world *w, rb_body_id id, const char *which, int *slot, rb_status *s)
{
    rb_world *bw = rb_get_body(id, slot, s);
    if (!bw)
        return NULL;
    if (bw != w) {
        *s = rb_fail(w, RB_ERR_INVALID_ARGUMENT, "joint %s belongs to another world", which);
        return NULL;
    }
    return bw;
}

static bool null_body(rb_body_id id) { return id.index1 == 0 && id.world0 == 0 && id.generation == 0; }

// ---- creation ----

rb_status rb_create_joint(rb_world_id wid, const rb_joint_def *d, rb_joint_id *out)
{
    rb_status s;
    rb_world *w = rb_get_world(wid, &s);
    if (!w)
        return s;
    if (!d || !out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_create_joint: def and out must not be NULL");
    if (d->internal_value != RB_DEF_COOKIE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "joint def was not initialised with an rb_default_*_joint_def()");
    if ((int)d->type < 0 || (int)d->type >= RB_JK_TYPES)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "joint type must be one of rb_joint_type, got %d", (int)d->type);
    int a = -1, b;
    if (!null_body(d->body_a) && !def_body(w, d->body_a, "body_a", &a, &s))
        return s;
    if (null_body(d->body_b))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a joint needs body_b (body_a may be null: the static world)");
    if (!def_body(w, d->body_b, "body_b", &b, &s))
        return s;
    if (a == b)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a joint cannot join body %d to itself", b);
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    rb_scene *sc = &w->scene;
    if ((a < 0 || !rb_is_dynamic_flags(sc->body_flags[a])) && !rb_is_dynamic_flags(sc->body_flags[b]))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a joint needs a dynamic body: neither of its bodies is");
    rb_float3 anchor = rb_f3(d->anchor.x, d->anchor.y, d->anchor.z);
    rb_float3 anchor_b = d->separate_anchor_b ? rb_f3(d->anchor_b.x, d->anchor_b.y, d->anchor_b.z) : anchor;
    if (!rb_in_coordinate_range(anchor) || !rb_in_coordinate_range(anchor_b))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "joint anchors must be finite and within %g m of the origin",
                       RB_COORDINATE_LIMIT);
    rb_float3 frame_x, frame_y;
    if ((s = world_frame(w, d, &frame_x, &frame_y)) != RB_OK)
        return s;
    int type = (int)d->type;
    bool limited = d->enable_limit && (type == RB_JK_HINGE || type == RB_JK_SLIDER || type == RB_JK_DISTANCE);
    if (limited && (s = check_limits(w, type, d->lower, d->upper)) != RB_OK)
        return s;
    if (type == RB_JK_CONE_TWIST && (s = check_cone(w, d->swing_span1, d->swing_span2, d->twist_span)) != RB_OK)
        return s;
    bool motor = d->enable_motor && (type == RB_JK_HINGE || type == RB_JK_SLIDER);
    if (motor && (s = check_motor(w, d->motor_speed, d->max_motor_force)) != RB_OK)
        return s;
    bool spring = type == RB_JK_SPRING || (type == RB_JK_DISTANCE && d->enable_spring);
    if ((type == RB_JK_SPRING || type == RB_JK_DISTANCE) &&
        (s = check_spring(w, type, spring, d->hertz, d->damping_ratio, d->stiffness, d->damping)) != RB_OK)
        return s;
    float length = d->length > 0.0f ? d->length : rb_len(rb_sub(anchor_b, anchor));
    if (!isfinite(d->length) || d->length < 0.0f)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "joint length must be finite and >= 0 (0: from the anchors), got %g",
                       d->length);
    if (type == RB_JK_DISTANCE && !spring && !limited && length < 1e-3f)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "a distance joint's rod must be at least 1 mm long, got %g m (a ball joint holds two points together)",
                       length);
    if (!finite_in(d->break_force, 0.0f, INFINITY) || !finite_in(d->break_torque, 0.0f, INFINITY))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "break_force and break_torque must be finite and >= 0, got %g and %g",
                       d->break_force, d->break_torque);

    int j = rb_id_pool_next_free(&w->joint_ids);
    if (j < 0) {
        if (sc->joint_slots >= RB_MAX_JOINTS)
            return rb_fail(w, RB_ERR_CAPACITY, "too many joints: at most %d", RB_MAX_JOINTS);
        if ((s = reserve_joints(w, sc->joint_slots + 1)) != RB_OK)
            return s;
        j = sc->joint_slots;
    }
    // nothing can fail from here on
    if (j == sc->joint_slots)
        sc->joint_slots++;
    rb_id_pool_issue(&w->joint_ids, j);
    rb_joint *k = &sc->joints[j];
    memset(k, 0, sizeof *k);
    k->body_a = a;
    k->body_b = b;
    k->type = type;
    rb_float3 ca = a >= 0 ? rb_xyz(sc->body_pos[a]) : rb_f3(0.0f, 0.0f, 0.0f);
    rb_float4 qa = a >= 0 ? sc->body_rot[a] : rb_quat_identity();
    rb_float3 cb = rb_xyz(sc->body_pos[b]);
    rb_float4 qb = sc->body_rot[b];
    k->anchor_a = rb_f4_from3(a >= 0 ? rb_inv_rotate(qa, rb_sub(anchor, ca)) : anchor, 0.0f);
    k->anchor_b = rb_f4_from3(rb_inv_rotate(qb, rb_sub(anchor_b, cb)), 0.0f);
    k->frame_ax = rb_f4_from3(rb_inv_rotate(qa, frame_x), 0.0f);
    k->frame_ay = rb_f4_from3(rb_inv_rotate(qa, frame_y), 0.0f);
    k->frame_bx = rb_f4_from3(rb_inv_rotate(qb, frame_x), 0.0f);
    k->frame_by = rb_f4_from3(rb_inv_rotate(qb, frame_y), 0.0f);
    if (type == RB_JK_CONE_TWIST)
        k->limits = rb_f4(d->twist_span, 0.0f, d->swing_span1, d->swing_span2);
    else
        k->limits = rb_f4(d->lower, d->upper, 0.0f, 0.0f);
    k->drive = rb_f4(d->motor_speed, d->max_motor_force, length, 0.0f);
    k->spring = rb_f4(d->stiffness, d->damping, d->hertz, d->damping_ratio);
    k->breaking = rb_f4(d->break_force, d->break_torque, 0.0f, 0.0f);
    k->flags = RB_JF_ENABLED | (limited ? RB_JF_LIMIT : 0u) | (motor ? RB_JF_MOTOR : 0u) |
               (spring ? RB_JF_SPRING_ON : 0u) | (d->collide_connected ? RB_JF_COLLIDE : 0u);
    w->joint_user_data[j] = d->user_data;
    w->joint_count++;
    sc->joint_version++;
    sc->dirty |= RB_DIRTY_JOINTS;
    w->contacts_stale = true;
    if (a >= 0)
        rb_wake_body(w, a);
    rb_wake_body(w, b);
    *out = make_id(w, j);
    return RB_OK;
}

static void free_joint(rb_world *w, int j)
{
    rb_scene *sc = &w->scene;
    rb_joint *k = &sc->joints[j];
    if (k->body_a >= 0)
        rb_wake_body(w, k->body_a);
    if (k->body_b >= 0 && (sc->body_flags[k->body_b] & RB_BODY_ALIVE))
        rb_wake_body(w, k->body_b);
    memset(k, 0, sizeof *k);
    k->type = -1;
    k->body_a = k->body_b = -1;
    rb_id_pool_release(&w->joint_ids, j);
    w->joint_user_data[j] = NULL;
    w->joint_count--;
    sc->joint_version++;
    sc->dirty |= RB_DIRTY_JOINTS;
}

rb_status rb_destroy_joint(rb_joint_id id)
{
    rb_status s;
    int j;
    rb_world *w = get_joint(id, &j, &s);
    if (!w)
        return s;
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    free_joint(w, j);
    w->contacts_stale = true;
    return RB_OK;
}

void rb_destroy_body_joints(rb_world *w, int body)
{
    rb_scene *sc = &w->scene;
    if (w->joint_count == 0)
        return;
    for (int j = 0; j < sc->joint_slots; ++j) {
        rb_joint *k = &sc->joints[j];
        if (k->type >= 0 && (k->body_a == body || k->body_b == body)) {
            // the other body wakes; this one is on its way out
            if (k->body_a == body)
                k->body_a = -1;
            else
                k->body_b = -1;
            free_joint(w, j);
        }
    }
}

void rb_free_joints(rb_world *w)
{
    rb_id_pool_free(&w->joint_ids);
    free(w->joint_user_data);
    w->joint_user_data = NULL;
}

// ---- reading ----

rb_status rb_world_get_joint_count(rb_world_id wid, int *out)
{
    rb_status s;
    rb_world *w = rb_get_world(wid, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_joint_count: out must not be NULL");
    *out = w->joint_count;
    return RB_OK;
}

rb_status rb_world_get_joints(rb_world_id wid, rb_joint_id *out, int capacity, int *count)
{
    rb_status s;
    rb_world *w = rb_get_world(wid, &s);
    if (!w)
        return s;
    if (!count || capacity < 0 || (!out && capacity > 0))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "rb_world_get_joints: count must not be NULL, capacity must be >= 0 and out non-NULL with a capacity");
    int n = 0;
    for (int j = 0; j < w->scene.joint_slots; ++j) {
        if (w->scene.joints[j].type < 0)
            continue;
        if (n < capacity)
            out[n] = make_id(w, j);
        ++n;
    }
    *count = n;
    return RB_OK;
}

// The joint for reading, with the host scene brought up to date.
static rb_world *read_joint(rb_joint_id id, int *j, rb_status *s)
{
    rb_world *w = get_joint(id, j, s);
    if (w && (*s = rb_sync_from_backend(w)) != RB_OK)
        return NULL;
    return w;
}

// Lookup of a joint for the accessors below, with the host scene brought up to date (a device backend
// keeps the joints' impulses and broken flags): declares `w` and `j`, returns the failure.
#define JOINT_OR_RETURN(id, w, j)                                                                  \
    rb_status s_;                                                                                  \
    int j;                                                                                         \
    rb_world *w = read_joint(id, &j, &s_);                                                         \
    if (!w)                                                                                        \
        return s_;

rb_status rb_joint_get_type(rb_joint_id id, rb_joint_type *out)
{
    JOINT_OR_RETURN(id, w, j)
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_get_type: out must not be NULL");
    *out = (rb_joint_type)w->scene.joints[j].type;
    return RB_OK;
}

rb_status rb_joint_get_bodies(rb_joint_id id, rb_body_id *body_a, rb_body_id *body_b)
{
    JOINT_OR_RETURN(id, w, j)
    const rb_joint *k = &w->scene.joints[j];
    if (body_a)
        *body_a = k->body_a >= 0 ? rb_make_body_id(w, k->body_a) : rb_null_body_id;
    if (body_b)
        *body_b = rb_make_body_id(w, k->body_b);
    return RB_OK;
}

static rb_joint_geometry geometry_now(const rb_world *w, const rb_joint *k)
{
    const rb_scene *sc = &w->scene;
    rb_joint_body a = rb_joint_load_body(k->body_a, sc->body_flags, sc->body_pos, sc->body_rot, sc->body_lin_vel,
                                         sc->body_ang_vel, sc->body_inv_inertia_diag, sc->body_inv_inertia_offdiag);
    rb_joint_body b = rb_joint_load_body(k->body_b, sc->body_flags, sc->body_pos, sc->body_rot, sc->body_lin_vel,
                                         sc->body_ang_vel, sc->body_inv_inertia_diag, sc->body_inv_inertia_offdiag);
    return rb_joint_geometry_of(k, &a, &b);
}

rb_status rb_joint_get_coordinate(rb_joint_id id, float *out)
{
    JOINT_OR_RETURN(id, w, j)
    const rb_joint *k = &w->scene.joints[j];
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_get_coordinate: out must not be NULL");
    rb_joint_geometry g = geometry_now(w, k);
    switch (k->type) {
    case RB_JK_HINGE:
        *out = rb_joint_hinge_angle(&g);
        return RB_OK;
    case RB_JK_SLIDER:
        *out = rb_dot(g.d, g.xa);
        return RB_OK;
    case RB_JK_DISTANCE:
    case RB_JK_SPRING:
        *out = rb_len(g.d);
        return RB_OK;
    case RB_JK_CONE_TWIST:
        *out = rb_joint_twist(&g);
        return RB_OK;
    default:
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a %s joint has no coordinate", type_name(k->type));
    }
}

static rb_vec3 vec3_of(rb_float3 v) { return (rb_vec3){v.x, v.y, v.z}; }
static rb_quat quat_of(rb_float4 q) { return (rb_quat){q.x, q.y, q.z, q.w}; }

rb_status rb_joint_get_anchors(rb_joint_id id, rb_vec3 *anchor_a, rb_vec3 *anchor_b)
{
    JOINT_OR_RETURN(id, w, j)
    const rb_joint *k = &w->scene.joints[j];
    rb_joint_geometry g = geometry_now(w, k);
    rb_float3 pb = rb_add(rb_xyz(w->scene.body_pos[k->body_b]), g.rb);
    if (anchor_a)
        *anchor_a = vec3_of(rb_sub(pb, g.d));
    if (anchor_b)
        *anchor_b = vec3_of(pb);
    return RB_OK;
}

rb_status rb_joint_get_frames(rb_joint_id id, rb_quat *frame_a, rb_quat *frame_b)
{
    JOINT_OR_RETURN(id, w, j)
    const rb_joint *k = &w->scene.joints[j];
    rb_joint_geometry g = geometry_now(w, k);
    if (k->type == RB_JK_BALL || k->type == RB_JK_DISTANCE || k->type == RB_JK_SPRING) {
        // no frame of their own: the world's axes carried by each body
        rb_float4 qa = k->body_a >= 0 ? w->scene.body_rot[k->body_a] : rb_quat_identity();
        g.xa = rb_rotate(qa, rb_xyz(k->frame_ax)), g.ya = rb_rotate(qa, rb_xyz(k->frame_ay));
        g.xb = rb_rotate(w->scene.body_rot[k->body_b], rb_xyz(k->frame_bx));
        g.yb = rb_rotate(w->scene.body_rot[k->body_b], rb_xyz(k->frame_by));
        g.za = rb_cross(g.xa, g.ya), g.zb = rb_cross(g.xb, g.yb);
    }
    if (frame_a)
        *frame_a = quat_of(quat_from_axes(g.xa, g.ya, g.za));
    if (frame_b)
        *frame_b = quat_of(quat_from_axes(g.xb, g.yb, g.zb));
    return RB_OK;
}

rb_status rb_joint_get_limits(rb_joint_id id, bool *enabled, float *lower, float *upper)
{
    JOINT_OR_RETURN(id, w, j)
    const rb_joint *k = &w->scene.joints[j];
    if (k->type != RB_JK_HINGE && k->type != RB_JK_SLIDER && k->type != RB_JK_DISTANCE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_get_limits: a %s joint has no [lower, upper] range",
                       type_name(k->type));
    if (enabled)
        *enabled = (k->flags & RB_JF_LIMIT) != 0;
    if (lower)
        *lower = k->limits.x;
    if (upper)
        *upper = k->limits.y;
    return RB_OK;
}

rb_status rb_joint_get_cone_limits(rb_joint_id id, float *swing_span1, float *swing_span2, float *twist_span)
{
    JOINT_OR_RETURN(id, w, j)
    const rb_joint *k = &w->scene.joints[j];
    if (k->type != RB_JK_CONE_TWIST)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_get_cone_limits: a %s joint is not a cone-twist joint",
                       type_name(k->type));
    if (swing_span1)
        *swing_span1 = k->limits.z;
    if (swing_span2)
        *swing_span2 = k->limits.w;
    if (twist_span)
        *twist_span = k->limits.x;
    return RB_OK;
}

rb_status rb_joint_get_reaction(rb_joint_id id, rb_vec3 *force, rb_vec3 *torque)
{
    JOINT_OR_RETURN(id, w, j)
    const rb_joint *k = &w->scene.joints[j];
    if (force)
        *force = (rb_vec3){k->reaction.x, k->reaction.y, k->reaction.z};
    if (torque)
        *torque = (rb_vec3){k->reaction_torque.x, k->reaction_torque.y, k->reaction_torque.z};
    return RB_OK;
}

rb_status rb_joint_is_broken(rb_joint_id id, bool *out)
{
    JOINT_OR_RETURN(id, w, j)
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_is_broken: out must not be NULL");
    *out = (w->scene.joints[j].flags & RB_JF_BROKEN) != 0;
    return RB_OK;
}

rb_status rb_joint_is_enabled(rb_joint_id id, bool *out)
{
    JOINT_OR_RETURN(id, w, j)
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_is_enabled: out must not be NULL");
    unsigned int f = w->scene.joints[j].flags;
    *out = (f & RB_JF_ENABLED) && !(f & RB_JF_BROKEN);
    return RB_OK;
}

rb_status rb_joint_get_user_data(rb_joint_id id, void **out)
{
    JOINT_OR_RETURN(id, w, j)
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_get_user_data: out must not be NULL");
    *out = w->joint_user_data[j];
    return RB_OK;
}

rb_status rb_joint_set_user_data(rb_joint_id id, void *user_data)
{
    JOINT_OR_RETURN(id, w, j)
    w->joint_user_data[j] = user_data;
    return RB_OK;
}

// ---- changing ----

// After a change to a joint: a device backend sends the joints again; both bodies wake.
static void wake_bodies(rb_world *w, const rb_joint *k)
{
    w->scene.dirty |= RB_DIRTY_JOINTS;
    if (k->body_a >= 0)
        rb_wake_body(w, k->body_a);
    rb_wake_body(w, k->body_b);
}

rb_status rb_joint_set_limits(rb_joint_id id, bool enable, float lower, float upper)
{
    JOINT_OR_RETURN(id, w, j)
    rb_joint *k = &w->scene.joints[j];
    if (k->type != RB_JK_HINGE && k->type != RB_JK_SLIDER && k->type != RB_JK_DISTANCE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_set_limits: a %s joint has no [lower, upper] range%s",
                       type_name(k->type), k->type == RB_JK_CONE_TWIST ? " (rb_joint_set_cone_limits sets a cone's)" : "");
    if ((s_ = check_limits(w, k->type, lower, upper)) != RB_OK)
        return s_;
    k->limits.x = lower;
    k->limits.y = upper;
    k->flags = enable ? k->flags | RB_JF_LIMIT : k->flags & ~RB_JF_LIMIT;
    if (!enable)
        k->impulse[RB_JI_LOWER] = k->impulse[RB_JI_UPPER] = 0.0f;
    wake_bodies(w, k);
    return RB_OK;
}

rb_status rb_joint_set_cone_limits(rb_joint_id id, float swing_span1, float swing_span2, float twist_span)
{
    JOINT_OR_RETURN(id, w, j)
    rb_joint *k = &w->scene.joints[j];
    if (k->type != RB_JK_CONE_TWIST)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_set_cone_limits: a %s joint is not a cone-twist joint",
                       type_name(k->type));
    if ((s_ = check_cone(w, swing_span1, swing_span2, twist_span)) != RB_OK)
        return s_;
    k->limits = rb_f4(twist_span, 0.0f, swing_span1, swing_span2);
    wake_bodies(w, k);
    return RB_OK;
}

rb_status rb_joint_set_motor(rb_joint_id id, bool enable, float speed, float max_force)
{
    JOINT_OR_RETURN(id, w, j)
    rb_joint *k = &w->scene.joints[j];
    if (k->type != RB_JK_HINGE && k->type != RB_JK_SLIDER)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_set_motor: a %s joint has no motor (hinge and slider do)",
                       type_name(k->type));
    if ((s_ = check_motor(w, speed, max_force)) != RB_OK)
        return s_;
    k->drive.x = speed;
    k->drive.y = max_force;
    k->flags = enable ? k->flags | RB_JF_MOTOR : k->flags & ~RB_JF_MOTOR;
    if (!enable)
        k->impulse[RB_JI_MOTOR] = 0.0f;
    wake_bodies(w, k);
    return RB_OK;
}

rb_status rb_joint_set_spring(rb_joint_id id, bool enable, float hertz, float damping_ratio, float stiffness, float damping)
{
    JOINT_OR_RETURN(id, w, j)
    rb_joint *k = &w->scene.joints[j];
    if (k->type != RB_JK_SPRING && k->type != RB_JK_DISTANCE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_set_spring: a %s joint has no spring (spring and distance do)",
                       type_name(k->type));
    if ((s_ = check_spring(w, k->type, enable, hertz, damping_ratio, stiffness, damping)) != RB_OK)
        return s_;
    if (k->type == RB_JK_DISTANCE && !enable && !(k->flags & RB_JF_LIMIT) && k->drive.z < 1e-3f)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a distance joint's rod must be at least 1 mm long, its length is %g m",
                       k->drive.z);
    k->spring = rb_f4(stiffness, damping, hertz, damping_ratio);
    if (((k->flags & RB_JF_SPRING_ON) != 0) != enable)
        k->impulse[RB_JI_AXIAL] = 0.0f;
    k->flags = enable ? k->flags | RB_JF_SPRING_ON : k->flags & ~RB_JF_SPRING_ON;
    wake_bodies(w, k);
    return RB_OK;
}

rb_status rb_joint_set_length(rb_joint_id id, float length)
{
    JOINT_OR_RETURN(id, w, j)
    rb_joint *k = &w->scene.joints[j];
    if (k->type != RB_JK_SPRING && k->type != RB_JK_DISTANCE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_joint_set_length: a %s joint has no length (spring and distance do)",
                       type_name(k->type));
    bool rod = k->type == RB_JK_DISTANCE && !(k->flags & (RB_JF_SPRING_ON | RB_JF_LIMIT));
    if (!finite_in(length, rod ? 1e-3f : 0.0f, 1e18f))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "joint length must be finite and >= %s, got %g",
                       rod ? "1 mm for a rod" : "0", length);
    k->drive.z = length;
    wake_bodies(w, k);
    return RB_OK;
}

rb_status rb_joint_set_breaking(rb_joint_id id, float force, float torque)
{
    JOINT_OR_RETURN(id, w, j)
    if (!finite_in(force, 0.0f, INFINITY) || !finite_in(torque, 0.0f, INFINITY))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "break force and torque must be finite and >= 0, got %g and %g", force,
                       torque);
    rb_joint *k = &w->scene.joints[j];
    k->breaking.x = force;
    k->breaking.y = torque;
    w->scene.dirty |= RB_DIRTY_JOINTS;
    return RB_OK;
}

rb_status rb_joint_set_enabled(rb_joint_id id, bool enabled)
{
    JOINT_OR_RETURN(id, w, j)
    rb_joint *k = &w->scene.joints[j];
    unsigned int before = k->flags;
    k->flags = enabled ? (k->flags | RB_JF_ENABLED) & ~RB_JF_BROKEN : k->flags & ~RB_JF_ENABLED;
    if (k->flags != before) {
        for (int i = 0; i < RB_JI_COUNT; ++i)
            k->impulse[i] = 0.0f;
        w->scene.joint_version++;
        w->contacts_stale = true;
    }
    wake_bodies(w, k);
    return RB_OK;
}
